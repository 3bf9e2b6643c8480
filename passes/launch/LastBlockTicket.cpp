//===- LastBlockTicket.cpp - which block of a launch finishes last --------===//
#include "passes/launch/LastBlockTicket.h"

#include "dialect/Kf/KfOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using kfuse::kf::KernelMapping;

namespace {

/// `__threadfence()`: a device-scope acquire-release fence (PTX
/// `fence.acq_rel.gpu`; on the host an ordinary fence). LLVM 22 lowers
/// memref.atomic_rmw to a relaxed `atom.global.add` on NVPTX, so the
/// ordering comes from these fences around it.
void deviceFence(OpBuilder &b, Location loc) {
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acq_rel, "device");
}

} // namespace

MemRefType kfuse::launch::ticketType(MLIRContext *ctx) {
  return MemRefType::get({1}, IntegerType::get(ctx, 32));
}

Value kfuse::launch::takeLastTicket(OpBuilder &b, Location loc, FlatSymbolRefAttr ticket,
                                    Value grid) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Type i32 = b.getI32Type();
  Value counter = memref::GetGlobalOp::create(b, loc, ticketType(b.getContext()), ticket);
  deviceFence(b, loc); // release: this block's writes before the ticket
  Value one = arith::ConstantIntOp::create(b, loc, i32, 1);
  Value old = memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi, one, counter,
                                          ValueRange{zero});
  deviceFence(b, loc); // acquire: the other blocks' writes after it
  Value lastTicket = arith::IndexCastOp::create(
      b, loc, i32, arith::SubIOp::create(b, loc, grid, arith::ConstantIndexOp::create(b, loc, 1)));
  Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, old, lastTicket);
  // Every other block has taken its ticket: the counter is free again for
  // the next launch.
  auto reset = scf::IfOp::create(b, loc, last, false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&reset.getThenRegion().front());
  memref::StoreOp::create(b, loc, arith::ConstantIntOp::create(b, loc, i32, 0), counter,
                          ValueRange{zero});
  return last;
}

kfuse::launch::Tickets kfuse::launch::createTickets(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  SymbolTable symbols(module);
  OpBuilder b(ctx);
  Tickets tickets;
  module.walk([&](kf::KernelOp kernel) {
    std::optional<KernelMapping> mapping = kernel.getMapping();
    if (mapping != KernelMapping::GridReduction && mapping != KernelMapping::RowChain &&
        mapping != KernelMapping::MultiReduction)
      return;
    MemRefType type = ticketType(ctx);
    auto global = memref::GlobalOp::create(
        b, kernel.getLoc(), (kernel.getSymName() + "_ticket").str(), b.getStringAttr("private"),
        type,
        DenseElementsAttr::get(RankedTensorType::get({1}, b.getI32Type()),
                               b.getI32IntegerAttr(0).getValue()),
        /*constant=*/false, /*alignment=*/nullptr);
    symbols.insert(global, module.getBody()->begin()); // renamed if taken
    tickets[kernel] = FlatSymbolRefAttr::get(global.getSymNameAttr());
  });
  return tickets;
}
