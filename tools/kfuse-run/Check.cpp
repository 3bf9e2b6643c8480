//===- Check.cpp - --check: the run against the program in float64 --------===//
//
// A run's results differ from the exact ones by its rounding errors, which
// a reordered (fused) evaluation legitimately moves: an elementwise
// tolerance such as allclose's reads that as failure on large activations,
// cancellations and poles, and passes gross errors on small values. So the
// check compares with the program evaluated in float64 (the reference
// library, kfuse-compile --float64-reference), which also returns, for
// each element, the scale of the error the program makes in its working
// precision (passes/utils/Float64Reference.h: each op's rounding carried
// through the program, reductions' roundings adding in quadrature). An
// element x with float64 value t passes when |x - t| is within
//   - kReach times that scale (8: rounding errors that large are far
//     beyond chance), or
//   - the error the unfused run made, measured: kGauge (4) times its error
//     at that element plus its 90th percentile over the tensor, plus kUlps
//     (4) units of the working precision's roundoff at |t| plus the
//     tensor's RMS (what a reordering of the same roundings moves),
// and is counted as unchecked when neither holds and its scale is not
// finite (a pole or an overflow within the error, a comparison, rounding
// or argmax that may flip). A bug (an index off by one, a dropped term, a
// narrower accumulator) moves results by far more than either.
//
//===----------------------------------------------------------------------===//
#include "Run.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kfuse::run {

namespace {

/// The multiple of the reference's error scale allowed (kReach in
/// passes/utils/Float64Reference.h, where the reference uses it too).
constexpr double kReach = 8;
/// The unfused run's measured error: kGauge times it, and kUlps units of
/// the working precision's roundoff.
constexpr double kGauge = 4, kUlps = 4;

/// The check without a float64 reference: allclose's |a - b| <= atol +
/// rtol |b| against the unfused run, per dtype; exact for integers.
std::pair<double, double> allclose(const std::string &dtype) {
  if (dtype == "f32") return {1e-5, 1e-4};
  if (dtype == "f64") return {1e-12, 1e-10};
  if (dtype == "f16") return {1e-3, 1e-2};
  if (dtype == "bf16") return {1e-2, 2e-2};
  return {0, 0};
}

/// An absolute slack for values near 0: subnormals lost to flush-to-zero
/// (GPU f32 code may flush below 2^-126), f16's subnormal spacing.
double tiny(const std::string &dtype) {
  if (dtype == "f16")
    return std::ldexp(1.0, -23);
  if (dtype == "f32" || dtype == "bf16" || dtype == "f64")
    return std::ldexp(1.0, -124);
  return 0;
}

double largest(const std::string &dtype) {
  if (dtype == "f16")
    return 65504.0;
  if (dtype == "f32" || dtype == "bf16")
    return 3.4028234663852886e38;
  return INFINITY;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.9g", v);
  return buf;
}

/// "result0[2, 1]": element i of a tensor of `shape`, by index.
std::string elementName(size_t r, const std::vector<int64_t> &shape, int64_t i) {
  std::string index;
  for (size_t d = shape.size(); d-- > 0;) {
    int64_t size = std::max<int64_t>(shape[d], 1);
    index = std::to_string(i % size) + (index.empty() ? "" : ", ") + index;
    i /= size;
  }
  return "result" + std::to_string(r) + "[" + index + "]";
}

Tensor toF64(const Tensor &t) {
  if (t.dtype != "f32" && t.dtype != "f16" && t.dtype != "bf16")
    return t;
  Tensor wide{"f64", t.shape, {}};
  wide.data.resize(size_t(t.elements()) * sizeof(double));
  double *out = reinterpret_cast<double *>(wide.data.data());
  for (int64_t i = 0; i < t.elements(); ++i)
    out[i] = t.at(i);
  return wide;
}

/// Runs `f` of `library` unfused on the CPU in a child kfuse-run, on the
/// inputs written as `stem`argN.npy, and reads its `count` results.
bool runChild(const std::string &library, const std::string &entry,
              const std::vector<Tensor> &inputs, size_t count, const std::string &stem,
              std::vector<Tensor> &out, std::string &failure, std::string &error) {
  std::vector<std::string> argv = {selfDir() + "/kfuse-run", library, "--device=cpu",
                                   "--fusion=off", "--warmup=0", "--repeat=0",
                                   "--quiet", "--entry=" + entry};
  for (size_t a = 0; a < inputs.size(); ++a) {
    std::string path = tempDir() + "/" + stem + "arg" + std::to_string(a) + ".npy";
    if (!writeNpy(path, inputs[a], error))
      return false;
    argv.push_back("--input=arg" + std::to_string(a) + "=" + path);
  }
  for (size_t r = 0; r < count; ++r)
    argv.push_back("--output=result" + std::to_string(r) + "=" + tempDir() + "/" + stem +
                   "result" + std::to_string(r) + ".npy");
  if (int rc = spawn(argv); rc != 0) {
    failure = signalNote(rc);
    return true;
  }
  out.resize(count);
  for (size_t r = 0; r < count; ++r)
    if (!readNpy(tempDir() + "/" + stem + "result" + std::to_string(r) + ".npy", out[r],
                 error))
      return false;
  return true;
}

enum class Verdict { Ok, Unchecked, Fail };

/// The unit roundoff of a dtype (0 for integers and bool).
double roundoff(const std::string &dtype) {
  if (dtype == "f16") return std::ldexp(1.0, -11);
  if (dtype == "bf16") return std::ldexp(1.0, -8);
  if (dtype == "f32") return std::ldexp(1.0, -24);
  if (dtype == "f64") return std::ldexp(1.0, -53);
  return 0;
}

/// What one tensor's elements are judged with.
struct Judge {
  const Tensor &truth, &scale, &unfused;
  double work;     // unit roundoff of the working precision
  double q90 = 0;  // 90th percentile of the unfused run's errors
  double rms = 0;  // RMS of the finite float64 values

  Judge(const Tensor &truth, const Tensor &scale, const Tensor &unfused, double work)
      : truth(truth), scale(scale), unfused(unfused), work(work) {
    std::vector<double> errors;
    double squares = 0;
    int64_t finite = 0;
    for (int64_t i = 0; i < truth.elements(); ++i) {
      double t = truth.at(i), e = std::fabs(unfused.at(i) - t);
      if (!std::isfinite(t))
        continue;
      squares += t * t;
      ++finite;
      if (std::isfinite(e))
        errors.push_back(e);
    }
    rms = finite ? std::sqrt(squares / double(finite)) : 0;
    if (!errors.empty()) {
      size_t k = size_t(0.9 * double(errors.size() - 1));
      std::nth_element(errors.begin(), errors.begin() + k, errors.end());
      q90 = errors[k];
    }
  }

  /// The unfused run's measured error, widened (0 where it is not finite).
  double gauge(int64_t i) const {
    double t = truth.at(i), e = std::fabs(unfused.at(i) - t);
    return kGauge * ((std::isfinite(e) ? e : 0) + q90) + kUlps * work * (std::fabs(t) + rms);
  }

  /// x against element i; `use` is |x - t| over what is allowed. With
  /// `measured` false, the error scale alone (the unfused run's own test).
  Verdict operator()(double x, int64_t i, const std::string &dtype, bool measured,
                     double &use) const {
    use = 0;
    double t = truth.at(i), b = scale.at(i);
    if (x == t || (std::isnan(x) && std::isnan(t)))
      return Verdict::Ok; // equal infinities too
    if (!std::isfinite(t))
      return Verdict::Unchecked;
    double bounded = std::isfinite(b) ? kReach * b + tiny(dtype) : 0;
    double allowed = std::max(bounded, measured ? gauge(i) : 0.0);
    double d = std::fabs(x - t);
    if (std::isinf(x) && std::fabs(t) + allowed >= largest(dtype) && (x > 0) == (t > 0))
      return Verdict::Ok; // an overflow within reach
    if (d <= allowed)
      return use = allowed > 0 ? d / allowed : 0, Verdict::Ok;
    if (!std::isfinite(b))
      return Verdict::Unchecked;
    use = allowed > 0 ? d / allowed : INFINITY;
    return Verdict::Fail;
  }
};

/// What one element was, for a detail line.
std::string describe(double x, const Judge &judge, int64_t i) {
  double t = judge.truth.at(i), b = judge.scale.at(i);
  return number(x) + ", float64 " + number(t) + " (error " + number(std::fabs(x - t)) +
         "; allowed: " + number(kReach) + " x the error scale " + number(b) +
         ", or the unfused run's error widened, " + number(judge.gauge(i)) + ")";
}

/// The unit roundoff of the precision `f` works in: the narrowest float of
/// its arguments and results (an f64 result of f32 work has f32's error).
double workRoundoff(const FunctionInfo &f) {
  double work = 0;
  for (const auto *list : {&f.args, &f.results})
    for (const TensorType &t : *list)
      work = std::max(work, roundoff(t.dtype));
  return work;
}

void compareWithReference(const FunctionInfo &f, const std::vector<Tensor> &results,
                          const std::vector<Tensor> &unfused,
                          const std::vector<Tensor> &reference, CheckResult &check) {
  size_t count = results.size();
  for (size_t r = 0; r < count; ++r) {
    const Tensor &got = results[r], &low = unfused[r];
    const Tensor &truth = reference[r], &scale = reference[count + r];
    if (truth.shape != got.shape || scale.shape != got.shape || low.shape != got.shape) {
      check.passed = false;
      check.detail = "result" + std::to_string(r) + " has shape " + shapeString(got.shape) +
                     ", the float64 reference's " + shapeString(truth.shape) +
                     " (its error scale's " + shapeString(scale.shape) +
                     ", the unfused run's " + shapeString(low.shape) +
                     "): the reference is not of this program";
      return;
    }
    double work = got.dtype == "f64" ? workRoundoff(f) : roundoff(got.dtype);
    Judge judge(truth, scale, low, work);
    for (int64_t i = 0; i < got.elements(); ++i) {
      double x = got.at(i), u = low.at(i), t = truth.at(i), use = 0;
      (void)judge(u, i, got.dtype, /*measured=*/false, use);
      check.unfusedBoundUse = std::max(check.unfusedBoundUse, use);
      if (std::isfinite(u) && std::isfinite(t))
        check.unfusedMaxAbs = std::max(check.unfusedMaxAbs, std::fabs(u - t));
      Verdict verdict = judge(x, i, got.dtype, /*measured=*/true, use);
      check.boundUse = std::max(check.boundUse, use);
      check.unchecked += verdict == Verdict::Unchecked;
      if (x != t && !(std::isnan(x) && std::isnan(t))) {
        double diff = std::fabs(x - t);
        if (!std::isnan(diff))
          check.maxAbs = std::max(check.maxAbs, diff);
        check.maxRel = std::max(check.maxRel, t != 0 ? diff / std::fabs(t) : INFINITY);
      }
      if (verdict == Verdict::Fail && check.passed) {
        check.passed = false;
        check.detail = elementName(r, got.shape, i) + " = " + describe(x, judge, i);
      }
    }
  }
}

void compareWithUnfused(const std::vector<Tensor> &results,
                        const std::vector<Tensor> &unfused, CheckResult &check) {
  for (size_t r = 0; r < results.size(); ++r) {
    const Tensor &got = results[r], &ref = unfused[r];
    auto [atol, rtol] = allclose(got.dtype);
    check.tolerance = "no float64 reference (" + check.noReference + "): against the "
                      "unfused run, " + got.dtype + ": |a - b| <= " + number(atol) + " + " +
                      number(rtol) + " * |b|";
    if (ref.shape != got.shape) {
      check.passed = false;
      check.detail = "result" + std::to_string(r) + " has shape " + shapeString(got.shape) +
                     ", the reference " + shapeString(ref.shape);
      continue;
    }
    for (int64_t i = 0; i < got.elements(); ++i) {
      double a = got.at(i), b = ref.at(i);
      if (a == b || (std::isnan(a) && std::isnan(b)))
        continue;
      double diff = std::fabs(a - b);
      if (!std::isnan(diff))
        check.maxAbs = std::max(check.maxAbs, diff);
      check.maxRel = std::max(check.maxRel, b != 0 ? diff / std::fabs(b) : INFINITY);
      if (!(diff <= atol + rtol * std::fabs(b)) && check.passed) {
        check.passed = false;
        check.detail = elementName(r, got.shape, i) + " = " + number(a) + ", unfused " +
                       number(b);
      }
    }
  }
}

} // namespace

CheckResult checkResults(const Options &o, const std::string &library,
                         const std::string &reference, const FunctionInfo &f,
                         const std::vector<Tensor> &inputs,
                         const std::vector<Tensor> &results, const std::string &noReference,
                         std::string &error) {
  CheckResult check;
  check.ran = true;
  check.reference = reference.empty() ? "unfused" : "float64";
  if (reference.empty())
    check.noReference = noReference.empty() ? "a library without --reference" : noReference;
  std::vector<Tensor> unfused, truth;
  std::string failure;
  if (!runChild(library, f.name, inputs, results.size(), "unfused-", unfused, failure, error))
    return check.passed = false, check;
  if (unfused.size() != results.size()) {
    check.passed = false;
    check.detail = "the unfused run on the CPU failed" + failure;
    return check;
  }
  if (reference.empty()) {
    compareWithUnfused(results, unfused, check);
    return check;
  }
  std::vector<Tensor> wide;
  for (const Tensor &t : inputs)
    wide.push_back(toF64(t));
  if (!runChild(reference, f.name, wide, 2 * results.size(), "float64-", truth, failure,
                error))
    return check.passed = false, check;
  if (truth.size() != 2 * results.size()) {
    check.passed = false;
    check.detail = "the float64 reference run failed" + failure + " (is " + reference +
                   " from kfuse-compile --emit=lib --float64-reference of this program?)";
    return check;
  }
  check.tolerance = number(kReach) + "x the error scale of the working precision, or " +
                    number(kGauge) + "x the unfused run's error + " + number(kUlps) + " ulps";
  compareWithReference(f, results, unfused, truth, check);
  return check;
}

} // namespace kfuse::run
