//===- LastBlockTicket.h - which block of a launch finishes last -*- C++ -*-===//
//
// Kernels whose last block finishes the work of the others (a full
// reduction, a row chain: gpu/rows/LastBlockReductions.cpp; reductions over
// rows and columns: gpu/rows/MultiReductions.cpp) find out which
// block is last with a ticket, as in CUDA's threadFenceReduction sample:
// after a fence, one thread of each block adds 1 to a counter; the block
// that gets `gridDim - 1` saw every other block's fence and increment, so
// every other block's writes, and it resets the counter to 0.
//
// The counter is a memref.global of one i32, initialised to 0, one per
// kernel (`<kernel>_ticket`): in the gpu.module it is a PTX `.global`, on
// the host runtime and in the emulation a global of the program; nothing
// allocates it. This assumes one launch of that kernel at a time, which
// kfuse's runtime keeps (one stream, launches in order; the host runtime
// runs one launch at a time). Two launches of the same kernel overlapping
// (two streams, two host threads calling the same program at once) would
// share the counter and could both miss their last block; a launch that
// dies between a ticket and the reset (a trap) leaves it non-zero for the
// next.
//
//===----------------------------------------------------------------------===//
#ifndef KFUSE_PASSES_LAUNCH_LASTBLOCKTICKET_H
#define KFUSE_PASSES_LAUNCH_LASTBLOCKTICKET_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

namespace kfuse::launch {

/// The type of a launch's ticket counter: one i32.
mlir::MemRefType ticketType(mlir::MLIRContext *ctx);

/// Takes a ticket from the counter `ticket` (between a release and an
/// acquire fence): whether this block is the last of the `grid` blocks to
/// take one (an i1; every other block's writes before its ticket are then
/// visible), the last resetting the counter for the next launch. Run by
/// one thread a block.
mlir::Value takeLastTicket(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::FlatSymbolRefAttr ticket, mlir::Value grid);

/// The ticket counters of the kernels that have one, by kernel.
using Tickets = llvm::DenseMap<mlir::Operation *, mlir::FlatSymbolRefAttr>;

/// A counter `<kernel>_ticket` at the top of `module` (renamed if the name
/// is taken) for each kf.kernel whose last block finishes the work
/// (grid_reduction, row_chain, multi_reduction). Outlining copies it into the gpu.module;
/// the host runtime and the emulation use this one.
Tickets createTickets(mlir::ModuleOp module);

} // namespace kfuse::launch

#endif // KFUSE_PASSES_LAUNCH_LASTBLOCKTICKET_H
