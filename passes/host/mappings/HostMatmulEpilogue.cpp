//===- HostMatmulEpilogue.cpp - a host matmul's parts and epilogue --------===//
//
// The epilogue of a host matmul kernel (bias, relu, residual, ...) runs on
// the accumulator tile while it is in registers, a row of the tile at a
// time (HostMatmul.cpp's finishTile says how its vectors are grouped):
// each epilogue op's body is cloned with its scalar
// types widened to vectors by the host's one vectorizer (VectorCloner.h). An operand indexed by (i, j) or (j) is a
// vector load of the segment, one indexed by (i) alone (or nothing) a
// scalar broadcast. Upstream's linalg vectorizer would vectorize the
// generics, but as separate ops over memory, not on the accumulators the
// micro-kernel holds.
//
//===----------------------------------------------------------------------===//
#include "passes/host/mappings/HostMatmulEpilogue.h"

#include "passes/host/mappings/VectorCloner.h"
#include "passes/launch/MappingUtils.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using kfuse::gpu::cloneBody;
using kfuse::gpu::indices;

namespace kfuse::host::matmul {

namespace {

/// How an epilogue operand is read for a row segment at (..., i, j ..
/// j+lanes), j the epilogue's last loop: a vector when its last index is j
/// (and contiguous), a broadcast scalar when no index depends on j; none
/// otherwise (j elsewhere: strided).
enum class Read { Vector, Broadcast, None };

/// The constant global an i1 `buffer` reads (memref.get_global of a
/// constant memref.global with a dense value), or null.
memref::GlobalOp constantMask(Value buffer) {
  auto get = buffer.getDefiningOp<memref::GetGlobalOp>();
  if (!get || !get.getType().getElementType().isInteger(1))
    return nullptr;
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(get, get.getNameAttr());
  if (!global || !global.getConstant() || !global.getInitialValue() ||
      !isa<DenseElementsAttr>(*global.getInitialValue()))
    return nullptr;
  return global;
}

/// The bytes of the constant i1 `buffer` (constantMask) as an i8 buffer of
/// the same shape: a companion global `<name>_bytes` (made once), read
/// where `buffer` is (outside the launch, which receives it as it
/// receives `buffer`). Its lanes load as one vector of bytes: the 16
/// lanes of Llama's causal mask gathered a byte at a time made its
/// scores' epilogue slower than element by element (196 us against 125).
/// A symbol of that name that is not this companion (a program's own
/// function named so) is left alone: the companion takes the first free
/// `<name>_bytes_<n>`.
Value maskBytes(OpBuilder &b, Value buffer) {
  memref::GlobalOp global = constantMask(buffer);
  auto get = buffer.getDefiningOp<memref::GetGlobalOp>();
  auto type = MemRefType::get(get.getType().getShape(), b.getI8Type());
  auto bits = cast<DenseElementsAttr>(*global.getInitialValue());
  SmallVector<int8_t> bytes;
  for (bool v : bits.getValues<bool>())
    bytes.push_back(v);
  Attribute value = DenseElementsAttr::get(
      RankedTensorType::get(type.getShape(), b.getI8Type()), ArrayRef(bytes));
  auto module = global->getParentOfType<ModuleOp>();
  std::string name = (global.getSymName() + "_bytes").str();
  for (unsigned n = 1;; ++n) {
    Operation *existing = module.lookupSymbol(name);
    if (!existing)
      break;
    auto other = dyn_cast<memref::GlobalOp>(existing);
    if (other && other.getConstant() && other.getType() == type &&
        other.getInitialValue() == value)
      break; // this companion, made for another kernel
    name = (global.getSymName() + "_bytes_" + Twine(n)).str();
  }
  if (!module.lookupSymbol(name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(global);
    memref::GlobalOp::create(b, global.getLoc(), name, b.getStringAttr("private"), type,
                             value, /*constant=*/true, /*alignment=*/nullptr);
  }
  // One read of it a kernel: made right after `buffer`'s, found there.
  for (Operation *next = get->getNextNode(); auto bytes = dyn_cast_or_null<memref::GetGlobalOp>(next);
       next = next->getNextNode())
    if (bytes.getName() == name)
      return bytes;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfter(get);
  return memref::GetGlobalOp::create(b, get.getLoc(), type, name);
}

Read readOf(AffineMap map, Value buffer) {
  ArrayRef<AffineExpr> results = map.getResults();
  unsigned j = map.getNumDims() - 1;
  bool vector = !results.empty() && results.back() == getAffineDimExpr(j, map.getContext());
  for (size_t r = 0; r + (vector ? 1 : 0) < results.size(); ++r)
    if (results[r].isFunctionOfDim(j))
      return Read::None;
  auto type = cast<MemRefType>(buffer.getType());
  if (vector && !type.isLastDimUnitStride())
    return Read::None;
  // A vector<8xi1> load reads 8 bits, where an i1 buffer holds a byte an
  // element: a constant one (a causal mask the importer folded, read by
  // attention's scores) is read as its bytes (maskBytes), another element
  // by element.
  if (vector && type.getElementType().isInteger(1) && !constantMask(buffer))
    return Read::None;
  return vector ? Read::Vector : Read::Broadcast;
}

/// Whether the epilogue can run on vectors: every operand read as a
/// vector or a broadcast (or already in registers), every op vectorizes,
/// every stored result contiguous.
bool vectorEpilogue(const Kernel &k) {
  llvm::DenseSet<Value> inRegister = {k.c()};
  for (const Kernel &step : k.chain)
    inRegister.insert(step.c());
  for (linalg::GenericOp g : k.epilogue) {
    for (OpOperand &operand : g->getOpOperands()) {
      if (g.getMatchingBlockArgument(&operand).use_empty())
        continue;
      AffineMap map = g.getMatchingIndexingMap(&operand);
      if (map.isIdentity() && inRegister.contains(operand.get()))
        continue;
      if (readOf(map, operand.get()) == Read::None)
        return false;
    }
    // The lanes past the tile's edge load zeros.
    if (!VectorCloner::vectorizes(g, TailLanes::Zeros))
      return false;
    for (Value init : g.getDpsInits()) {
      auto type = cast<MemRefType>(init.getType());
      // (i1 stores: bits, as i1 loads above.)
      if (k.stored(init) && (!type.isLastDimUnitStride() || type.getElementType().isInteger(1)))
        return false;
      inRegister.insert(init);
    }
  }
  return true;
}

/// Whether `buffer` is scratch of `kernel`: allocated for it, and outside
/// it only deallocated.
bool isScratch(Value buffer, Operation *kernel) {
  if (!buffer.getDefiningOp<memref::AllocOp>() && !buffer.getDefiningOp<memref::AllocaOp>())
    return false;
  return llvm::all_of(buffer.getUsers(), [&](Operation *user) {
    return kernel->isProperAncestor(user) || isa<memref::DeallocOp>(user);
  });
}

Value broadcast(OpBuilder &b, Location loc, Value scalar, int64_t lanes) {
  return vector::BroadcastOp::create(b, loc, VectorType::get({lanes}, scalar.getType()), scalar);
}

/// A chain's earlier products are in the accumulator: their results
/// read as 0 (of `type`, a vector or f32) in the epilogue.
llvm::DenseMap<Value, Value> chainZeros(OpBuilder &b, Location loc, const Kernel &k, Type type) {
  llvm::DenseMap<Value, Value> zeros;
  for (const Kernel &step : k.chain)
    zeros[step.c()] = arith::ConstantOp::create(b, loc, cast<TypedAttr>(b.getZeroAttr(type)));
  return zeros;
}

} // namespace

int64_t lanesOf(unsigned vectorBits) { return vectorBits >= 512 ? 16 : 8; }

void storeLanes(OpBuilder &b, Location loc, Value v, Value buffer, ValueRange idx, Value mask) {
  if (mask)
    vector::MaskedStoreOp::create(b, loc, buffer, idx, mask, v);
  else
    vector::StoreOp::create(b, loc, v, buffer, idx);
}

Value loadLanes(OpBuilder &b, Location loc, Value buffer, ValueRange idx, Value mask,
                int64_t lanes) {
  auto type = VectorType::get({lanes}, cast<MemRefType>(buffer.getType()).getElementType());
  if (!mask)
    return vector::LoadOp::create(b, loc, type, buffer, idx);
  Value zero = arith::ConstantOp::create(b, loc, cast<TypedAttr>(b.getZeroAttr(type)));
  return vector::MaskedLoadOp::create(b, loc, type, buffer, idx, mask, zero);
}

/// The checks of one matmul of the kernel (its own, or one of a chain's):
/// f32 FMAs over f32, f16 or bf16 operands, (batch..., m, n, k) loops.
static LogicalResult analyzeMatmul(linalg::LinalgOp matmul, linalg::FillOp fill, Kernel &k) {
  k.matmul = matmul;
  k.fill = fill;
  if (!k.fill || !k.fill.getInputs()[0].getDefiningOp<arith::ConstantOp>())
    return failure();
  k.a = k.matmul.getDpsInputs()[0];
  k.b = k.matmul.getDpsInputs()[1];
  k.cBuffer = k.matmul.getDpsInits()[0];
  // The micro-kernel is f32 FMAs: A and B of f32, f16 or bf16 (widened to
  // f32 as they are packed, as the matmul's body does: extf, mulf, addf),
  // C of f32. Other types (f64, integers) take the simple mapping.
  Type f32 = Float32Type::get(k.matmul.getContext());
  auto elementOf = [](Value v) { return cast<MemRefType>(v.getType()).getElementType(); };
  if (elementOf(k.c()) != f32)
    return failure();
  for (Value v : {k.a, k.b})
    if (!isa<Float32Type, Float16Type, BFloat16Type>(elementOf(v)))
      return failure();
  Block &body = k.matmul->getRegion(0).front();
  unsigned muls = 0, adds = 0;
  for (Operation &op : body.without_terminator()) {
    if (auto ext = dyn_cast<arith::ExtFOp>(op)) {
      auto arg = dyn_cast<BlockArgument>(ext.getIn());
      if (!arg || arg.getArgNumber() > 1 || ext.getType() != f32)
        return failure();
    } else if (isa<arith::MulFOp>(op) && !adds) {
      ++muls;
    } else if (isa<arith::AddFOp>(op) && muls) {
      ++adds;
    } else {
      return failure();
    }
  }
  if (muls != 1 || adds != 1)
    return failure();
  if (!cast<MemRefType>(k.c().getType()).isLastDimUnitStride())
    return failure();
  // (batch..., m, n, k) loops, k the reduction: C at (batch..., m, n), A
  // at (..., m, k) or (..., k, m), B at (..., k, n) or (..., n, k), their
  // leading indices batch loops or 0 (a broadcast dim of size 1).
  MLIRContext *ctx = k.matmul.getContext();
  unsigned loops = k.matmul.getNumLoops();
  k.batch = loops - 3;
  if (k.matmul.getIteratorTypesArray().back() != utils::IteratorType::reduction)
    return failure();
  AffineExpr m = getAffineDimExpr(k.batch, ctx), n = getAffineDimExpr(k.batch + 1, ctx),
             kk = getAffineDimExpr(k.batch + 2, ctx);
  SmallVector<AffineMap> maps = k.matmul.getIndexingMapsArray();
  auto lastTwo = [](AffineMap map, AffineExpr i, AffineExpr j) {
    ArrayRef<AffineExpr> r = map.getResults();
    return r.size() >= 2 && r[r.size() - 2] == i && r.back() == j;
  };
  auto batchOnly = [&](AffineMap map) {
    ArrayRef<AffineExpr> r = map.getResults();
    for (AffineExpr e : r.drop_back(2)) {
      auto d = dyn_cast<AffineDimExpr>(e);
      auto c = dyn_cast<AffineConstantExpr>(e);
      if (!(d && d.getPosition() < k.batch) && !(c && c.getValue() == 0))
        return false;
    }
    return true;
  };
  if (maps[2].getNumResults() != loops - 1)
    return failure();
  for (unsigned i = 0; i < loops - 1; ++i)
    if (maps[2].getResult(i) != getAffineDimExpr(i, ctx))
      return failure();
  AffineExpr plain[2][2] = {{m, kk}, {kk, n}};
  for (unsigned o = 0; o < 2; ++o) {
    auto [i, j] = plain[o];
    if (!batchOnly(maps[o]))
      return failure();
    if (lastTwo(maps[o], i, j))
      k.transposed[o] = false;
    else if (lastTwo(maps[o], j, i))
      k.transposed[o] = true;
    else
      return failure();
    k.maps[o] = maps[o];
  }
  return success();
}

SmallVector<const Kernel *> Kernel::steps() const {
  SmallVector<const Kernel *> all;
  for (const Kernel &step : chain)
    all.push_back(&step);
  all.push_back(this);
  return all;
}

LogicalResult analyze(ArrayRef<linalg::LinalgOp> ops, Kernel &k) {
  // Fills, matmuls (each started by the last fill of its init before it:
  // a chain has several) and the epilogue after the first matmul.
  SmallVector<linalg::FillOp> fills, startedBy;
  SmallVector<linalg::LinalgOp> matmuls;
  for (linalg::LinalgOp op : ops) {
    if (auto fill = dyn_cast<linalg::FillOp>(op.getOperation())) {
      fills.push_back(fill);
    } else if (isa<linalg::MatmulOp>(op.getOperation()) ||
               (isa<linalg::GenericOp>(op.getOperation()) &&
                op.getNumReductionLoops() == 1 && op.getNumLoops() >= 4)) {
      linalg::FillOp start; // batched: checked by analyzeMatmul
      for (linalg::FillOp fill : fills)
        if (fill.getDpsInits()[0] == op.getDpsInits()[0])
          start = fill;
      matmuls.push_back(op);
      startedBy.push_back(start);
    } else if (auto g = dyn_cast<linalg::GenericOp>(op.getOperation()); g && !matmuls.empty()) {
      k.epilogue.push_back(g);
    } else {
      return failure();
    }
  }
  if (matmuls.empty() || fills.size() != matmuls.size())
    return failure();
  for (auto [i, m] : llvm::enumerate(matmuls)) {
    Kernel &step = i + 1 < matmuls.size() ? k.chain.emplace_back() : k;
    if (failed(analyzeMatmul(m, startedBy[i], step)))
      return failure();
  }
  // Each step's accumulators are the same tile.
  for (const Kernel &step : k.chain)
    if (step.batch != k.batch)
      return failure();
  // Buffers written before the last op that nothing else reads need not
  // be stored; the last op's results are what the kernel is for.
  Operation *kernel = k.matmul->getParentOp();
  SmallVector<Value> written = {k.c()};
  for (const Kernel &step : k.chain)
    written.push_back(step.c());
  for (linalg::GenericOp g : k.epilogue)
    llvm::append_range(written, g.getDpsInits());
  SmallVector<Value> last = {k.c()};
  if (!k.epilogue.empty())
    last = llvm::to_vector(k.epilogue.back().getDpsInits());
  for (Value v : written)
    if (!llvm::is_contained(last, v) && isScratch(v, kernel))
      k.scratch.insert(v);
  k.vectorEpilogue = vectorEpilogue(k);
  // The scalar epilogue reads the matmul's values back from its result.
  if (!k.vectorEpilogue)
    k.scratch.erase(k.c());
  return success();
}

void finishVector(OpBuilder &b, Location loc, const Kernel &k, ValueRange batch, Value acc,
                  Value row, Value col, Value mask) {
  SmallVector<Value> ivs(batch);
  ivs.append({row, col});
  int64_t lanes = cast<VectorType>(acc.getType()).getNumElements();
  llvm::DenseMap<Value, Value> inRegister = chainZeros(b, loc, k, acc.getType());
  inRegister[k.c()] = acc;
  if (k.stored(k.c()))
    storeLanes(b, loc, acc, k.c(), ivs, mask);
  for (linalg::GenericOp g : k.epilogue) {
    IRMapping mapping;
    for (OpOperand &operand : g->getOpOperands()) {
      BlockArgument arg = g.getMatchingBlockArgument(&operand);
      if (arg.use_empty())
        continue;
      AffineMap map = g.getMatchingIndexingMap(&operand);
      auto it = inRegister.find(operand.get());
      if (map.isIdentity() && it != inRegister.end()) {
        mapping.map(arg, it->second);
        continue;
      }
      SmallVector<Value> idx = indices(b, loc, map, ivs);
      if (readOf(map, operand.get()) != Read::Vector) {
        mapping.map(arg, broadcast(b, loc, memref::LoadOp::create(b, loc, operand.get(), idx),
                                   lanes));
      } else if (arg.getType().isInteger(1)) { // a constant mask, as its bytes
        Value bytes = loadLanes(b, loc, maskBytes(b, operand.get()), idx, mask, lanes);
        Value zero =
            arith::ConstantOp::create(b, loc, cast<TypedAttr>(b.getZeroAttr(bytes.getType())));
        mapping.map(arg, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, bytes, zero));
      } else {
        mapping.map(arg, loadLanes(b, loc, operand.get(), idx, mask, lanes));
      }
    }
    VectorCloner cloner(b, loc, lanes);
    SmallVector<Value> results = cloner.cloneBody(g, mapping);
    for (auto [v, init] : llvm::zip(results, g.getDpsInits())) {
      Value result = cloner.broadcast(v);
      if (k.stored(init))
        storeLanes(b, loc, result, init, ivs, mask);
      inRegister[init] = result;
    }
  }
}

void finishScalar(OpBuilder &b, Location loc, const Kernel &k, ValueRange batch, Value row,
                  Value col) {
  SmallVector<Value> ivs(batch);
  ivs.append({row, col});
  llvm::DenseMap<Value, Value> inRegister = chainZeros(b, loc, k, b.getF32Type());
  inRegister[k.c()] = memref::LoadOp::create(b, loc, k.c(), ivs).getResult();
  for (linalg::GenericOp g : k.epilogue) {
    IRMapping mapping;
    for (OpOperand &operand : g->getOpOperands()) {
      BlockArgument arg = g.getMatchingBlockArgument(&operand);
      if (arg.use_empty())
        continue;
      AffineMap map = g.getMatchingIndexingMap(&operand);
      auto it = inRegister.find(operand.get());
      if (map.isIdentity() && it != inRegister.end())
        mapping.map(arg, it->second);
      else
        mapping.map(arg, memref::LoadOp::create(b, loc, operand.get(), indices(b, loc, map, ivs)));
    }
    SmallVector<Value> results = cloneBody(b, g, mapping, ivs);
    for (auto [v, init] : llvm::zip(results, g.getDpsInits())) {
      memref::StoreOp::create(b, loc, v, init, ivs);
      inRegister[init] = v;
    }
  }
}

} // namespace kfuse::host::matmul
