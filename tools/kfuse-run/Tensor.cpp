//===- Tensor.cpp - host tensors, .npy files, random inputs ---------------===//
#include "Tensor.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

namespace kfuse::run {

namespace {
struct DtypeInfo {
  const char *kf, *npy;
  size_t size;
};
// bf16 has no .npy type: read refuses it, write stores it widened to f4.
const DtypeInfo kDtypes[] = {{"f32", "<f4", 4}, {"f64", "<f8", 8}, {"f16", "<f2", 2},
                             {"bf16", nullptr, 2}, {"i32", "<i4", 4}, {"i64", "<i8", 8},
                             {"i1", "|b1", 1}};

const DtypeInfo *info(const std::string &dtype) {
  for (const DtypeInfo &d : kDtypes)
    if (dtype == d.kf)
      return &d;
  return nullptr;
}

float halfToFloat(uint16_t h) {
  uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  float v;
  if (exp == 0)
    v = std::ldexp(float(mant), -24);
  else if (exp == 31)
    v = mant ? NAN : INFINITY;
  else
    v = std::ldexp(float(mant | 0x400), int(exp) - 25);
  return sign ? -v : v;
}

uint16_t floatToHalf(float f) {
  // Round to nearest even through the usual bit manipulation.
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  if (std::isnan(f))
    return uint16_t(sign | 0x7e00);
  float a = std::fabs(f);
  if (a >= 65520.0f)
    return uint16_t(sign | 0x7c00);
  if (a < 6.103515625e-05f) // subnormal
    return uint16_t(sign | uint16_t(std::nearbyint(a * 16777216.0f)));
  int e;
  float m = std::frexp(a, &e); // a = m * 2^e, m in [0.5, 1)
  uint32_t mant = uint32_t(std::nearbyint((m * 2 - 1) * 1024));
  uint32_t exp = uint32_t(e - 1 + 15);
  if (mant == 1024) {
    mant = 0;
    ++exp;
  }
  return uint16_t(sign | (exp << 10) | mant);
}

float bf16ToFloat(uint16_t b) {
  uint32_t x = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

uint16_t floatToBf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if (std::isnan(f))
    return uint16_t((x >> 16) | 0x40);
  x += 0x7fff + ((x >> 16) & 1); // round to nearest even
  return uint16_t(x >> 16);
}
} // namespace

size_t elementSize(const std::string &dtype) {
  const DtypeInfo *d = info(dtype);
  return d ? d->size : 0;
}

std::string shapeString(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + (shape[i] < 0 ? std::string("?") : std::to_string(shape[i]));
  return s + "]";
}

int64_t Tensor::elements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

double Tensor::at(int64_t i) const {
  const unsigned char *p = data.data() + i * elementSize(dtype);
  if (dtype == "f32") { float v; std::memcpy(&v, p, 4); return v; }
  if (dtype == "f64") { double v; std::memcpy(&v, p, 8); return v; }
  if (dtype == "i32") { int32_t v; std::memcpy(&v, p, 4); return v; }
  if (dtype == "i64") { int64_t v; std::memcpy(&v, p, 8); return double(v); }
  if (dtype == "i1") return *p ? 1 : 0;
  uint16_t h;
  std::memcpy(&h, p, 2);
  return dtype == "f16" ? halfToFloat(h) : bf16ToFloat(h);
}

bool readNpy(const std::string &path, Tensor &out, std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return error = "cannot open " + path, false;
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0)
    return error = path + " is not a .npy file", false;
  int major = (unsigned char)bytes[6];
  size_t headerLen, start;
  if (major == 1) {
    headerLen = (unsigned char)bytes[8] | (unsigned char)bytes[9] << 8;
    start = 10;
  } else {
    if (bytes.size() < 12)
      return error = path + " is truncated", false;
    headerLen = 0;
    for (int k = 3; k >= 0; --k)
      headerLen = headerLen << 8 | (unsigned char)bytes[8 + k];
    start = 12;
  }
  if (start + headerLen > bytes.size())
    return error = path + " is truncated", false;
  std::string header = bytes.substr(start, headerLen);
  auto field = [&](const char *key) -> std::string {
    size_t k = header.find(std::string("'") + key + "'");
    if (k == std::string::npos)
      return "";
    size_t colon = header.find(':', k);
    return colon == std::string::npos ? "" : header.substr(colon + 1);
  };
  std::string descr = field("descr");
  size_t q1 = descr.find('\''), q2 = descr.find('\'', q1 + 1);
  if (q1 == std::string::npos || q2 == std::string::npos)
    return error = path + ": no dtype in the header", false;
  descr = descr.substr(q1 + 1, q2 - q1 - 1);
  if (descr.size() == 3 && descr[0] == '=')
    descr[0] = descr[2] == '1' ? '|' : '<';
  if (descr == "<b1")
    descr = "|b1";
  out.dtype.clear();
  for (const DtypeInfo &d : kDtypes)
    if (d.npy && descr == d.npy)
      out.dtype = d.kf;
  if (out.dtype.empty())
    return error = path + ": dtype '" + descr + "' is not one kfuse runs (f4, f8, f2, i4, i8, b1, little-endian)", false;
  if (field("fortran_order").find("True") < field("fortran_order").find(','))
    return error = path + ": Fortran-order arrays are not supported", false;
  std::string shape = field("shape");
  size_t open = shape.find('('), close = shape.find(')');
  if (open == std::string::npos || close == std::string::npos)
    return error = path + ": no shape in the header", false;
  std::stringstream dims(shape.substr(open + 1, close - open - 1));
  out.shape.clear();
  std::string item;
  while (std::getline(dims, item, ',')) {
    if (item.find_first_not_of(" ") == std::string::npos)
      continue;
    out.shape.push_back(std::stoll(item));
  }
  size_t want = size_t(out.elements()) * elementSize(out.dtype);
  size_t dataStart = start + headerLen;
  if (bytes.size() - dataStart != want)
    return error = path + ": " + std::to_string(bytes.size() - dataStart) +
                   " bytes of data for shape " + shapeString(out.shape) + ", expected " +
                   std::to_string(want),
           false;
  out.data.assign(bytes.begin() + dataStart, bytes.end());
  return true;
}

Tensor narrowToBf16(const Tensor &t) {
  Tensor out;
  out.dtype = "bf16";
  out.shape = t.shape;
  out.data.resize(t.elements() * 2);
  for (int64_t i = 0; i < t.elements(); ++i) {
    uint16_t v = floatToBf16(float(t.at(i)));
    std::memcpy(out.data.data() + 2 * i, &v, 2);
  }
  return out;
}

bool writeNpy(const std::string &path, const Tensor &t, std::string &error) {
  Tensor widened;
  const Tensor *src = &t;
  if (t.dtype == "bf16") {
    widened.dtype = "f32";
    widened.shape = t.shape;
    widened.data.resize(t.elements() * 4);
    for (int64_t i = 0; i < t.elements(); ++i) {
      float v = float(t.at(i));
      std::memcpy(widened.data.data() + 4 * i, &v, 4);
    }
    src = &widened;
  }
  std::string shape = "(";
  for (int64_t d : src->shape)
    shape += std::to_string(d) + ",";
  if (src->shape.size() > 1)
    shape.pop_back();
  shape += ")";
  std::string header = "{'descr': '" + std::string(info(src->dtype)->npy) +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64 != 0)
    header.push_back(' ');
  header.push_back('\n');
  std::string tmp = path + ".kfuse-tmp";
  {
    std::ofstream os(tmp, std::ios::binary);
    if (!os)
      return error = "cannot write " + path, false;
    os.write("\x93NUMPY\x01\x00", 8);
    char len[2] = {char(header.size() & 0xff), char(header.size() >> 8)};
    os.write(len, 2);
    os << header;
    os.write(reinterpret_cast<const char *>(src->data.data()), src->data.size());
    if (!os.good()) {
      std::remove(tmp.c_str());
      return error = "cannot write " + path, false;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return error = "cannot write " + path, false;
  }
  return true;
}

Tensor randomTensor(const std::string &dtype, const std::vector<int64_t> &shape,
                    uint64_t seed, unsigned argIndex) {
  Tensor t{dtype, shape, {}};
  size_t size = elementSize(dtype);
  t.data.resize(size_t(t.elements()) * size);
  std::mt19937_64 rng(seed * 1000003 + argIndex);
  std::uniform_real_distribution<double> real(-2.0, 2.0);
  std::uniform_int_distribution<int64_t> integer(-8, 8);
  for (int64_t i = 0; i < t.elements(); ++i) {
    unsigned char *p = t.data.data() + i * size;
    if (dtype == "f32") { float v = float(real(rng)); std::memcpy(p, &v, 4); }
    else if (dtype == "f64") { double v = real(rng); std::memcpy(p, &v, 8); }
    else if (dtype == "f16") { uint16_t v = floatToHalf(float(real(rng))); std::memcpy(p, &v, 2); }
    else if (dtype == "bf16") { uint16_t v = floatToBf16(float(real(rng))); std::memcpy(p, &v, 2); }
    else if (dtype == "i32") { int32_t v = int32_t(integer(rng)); std::memcpy(p, &v, 4); }
    else if (dtype == "i64") { int64_t v = integer(rng); std::memcpy(p, &v, 8); }
    else if (dtype == "i1") *p = rng() & 1;
  }
  return t;
}

} // namespace kfuse::run
