//===- Tensor.cpp - host tensors, .npy files, random inputs ---------------===//
#include "Tensor.h"

#include "OutputFiles.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <random>
#include <sys/sysinfo.h>
#include <unistd.h>

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
  // Shapes are checked with sizeOf where they enter (files, --dim, the
  // program's results): the product does not overflow here.
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

bool fitsInHostMemory(size_t bytes) {
  struct sysinfo info;
  if (sysinfo(&info) != 0)
    return true; // unknown: let the allocation decide
  unsigned __int128 total =
      (unsigned __int128)(info.totalram + info.totalswap) * info.mem_unit;
  return bytes <= total;
}

bool sizeOf(const std::vector<int64_t> &shape, size_t elementBytes, int64_t &elements,
            size_t &bytes) {
  int64_t n = 1;
  for (int64_t d : shape)
    if (d < 0 || __builtin_mul_overflow(n, d, &n))
      return false;
  int64_t b;
  if (__builtin_mul_overflow(n, int64_t(elementBytes), &b))
    return false;
  elements = n;
  bytes = size_t(b);
  return true;
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

namespace {
/// The whole file (a FIFO too); on failure says why, naming `path`.
bool readFile(const std::string &path, std::string &bytes, std::string &error) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return error = "cannot open " + path + ": " + std::strerror(errno), false;
  char buf[1 << 16];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) { // EISDIR: a directory opens, but does not read
      error = "cannot read " + path + ": " + std::strerror(errno);
      close(fd);
      return false;
    }
    if (n == 0)
      break;
    try {
      bytes.append(buf, size_t(n));
    } catch (const std::bad_alloc &) {
      error = "cannot read " + path + ": out of memory at " + std::to_string(bytes.size()) +
              " bytes";
      close(fd);
      return false;
    }
  }
  close(fd);
  return true;
}

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

/// The dims of a .npy shape tuple's inside, "2, 3", "5," or "":
/// non-negative decimal integers as Python writes them (no leading zero).
bool parseShape(const std::string &tuple, std::vector<int64_t> &shape, std::string &why) {
  shape.clear();
  size_t i = 0;
  auto space = [&] {
    while (i < tuple.size() && isSpace(tuple[i]))
      ++i;
  };
  while (true) {
    space();
    if (i == tuple.size())
      return true;
    size_t begin = i;
    int64_t d = 0;
    while (i < tuple.size() && tuple[i] >= '0' && tuple[i] <= '9') {
      if (__builtin_mul_overflow(d, int64_t(10), &d) ||
          __builtin_add_overflow(d, int64_t(tuple[i] - '0'), &d))
        return why = "dim " + tuple.substr(begin, tuple.find(',', begin) - begin) +
                     " is more than 2^63 - 1",
               false;
      ++i;
    }
    size_t end = tuple.find(',', begin);
    std::string item = tuple.substr(begin, end == std::string::npos ? end : end - begin);
    while (!item.empty() && isSpace(item.back()))
      item.pop_back();
    space();
    if (i == begin || (i < tuple.size() && tuple[i] != ',') ||
        (tuple[begin] == '0' && i - begin > 1))
      return why = "dim '" + item + "' is not a non-negative integer", false;
    shape.push_back(d);
    if (i < tuple.size())
      ++i; // the comma
  }
}

/// What a .npy header says.
struct NpyHeader {
  std::string descr;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
};

/// Reads the header's dict as numpy does (ast.literal_eval, then its
/// checks): the keys descr, fortran_order and shape, each once (Python
/// keeps a repeated key's last value, a lax reader its first), descr a
/// string, fortran_order the literal True or False (not 1, not 'True'),
/// shape a tuple of integers ("(5,)"; "(5)" is an int). Strings hold no
/// escapes (numpy writes none). Anything else is refused, said in `why`.
bool parseHeader(const std::string &h, NpyHeader &out, std::string &why) {
  size_t i = 0;
  auto skip = [&] {
    while (i < h.size() && isSpace(h[i]))
      ++i;
  };
  auto eat = [&](char c) {
    skip();
    return i < h.size() && h[i] == c ? (++i, true) : false;
  };
  // The text of the next value, for messages and True/False: up to the
  // next , } or newline, or a bracket's match.
  auto value = [&] {
    skip();
    size_t end = std::min(h.find_first_of(",}\n", i), h.size());
    size_t close = i < h.size() && (h[i] == '(' || h[i] == '[')
                       ? h.find(h[i] == '(' ? ')' : ']', i)
                       : h.npos;
    if (close != h.npos)
      end = close + 1;
    while (end > i && isSpace(h[end - 1]))
      --end;
    return h.substr(i, end - i);
  };
  auto string = [&](std::string &text) {
    char quote = eat('\'') ? '\'' : eat('"') ? '"' : 0;
    size_t close = quote ? h.find_first_of(std::string(1, quote) + "\\\n", i) : h.npos;
    if (close == h.npos || h[close] != quote)
      return false;
    text = h.substr(i, close - i);
    i = close + 1;
    return true;
  };
  const std::string keys[3] = {"descr", "fortran_order", "shape"};
  bool seen[3] = {false, false, false};
  if (!eat('{'))
    return why = "the .npy header is not a dict", false;
  while (!eat('}')) {
    std::string key, v;
    if (!string(key))
      return why = "the .npy header has the key " + value() + ", not a string", false;
    int k = int(std::find(keys, keys + 3, key) - keys);
    if (k == 3)
      return why = "the .npy header has the key '" + key +
                   "' (numpy's have descr, fortran_order and shape)",
             false;
    if (seen[k])
      return why = "the .npy header has the key '" + key + "' twice", false;
    seen[k] = true;
    if (!eat(':'))
      return why = "the .npy header has no ':' after '" + key + "'", false;
    v = value();
    if (k == 0 && !string(out.descr))
      return why = "descr in the .npy header is " + v + ", not a string", false;
    if (k == 1 && v != "True" && v != "False")
      return why = "fortran_order in the .npy header is " + v + ", not True or False", false;
    if (k == 1)
      out.fortranOrder = v == "True", i += v.size();
    if (k == 2) {
      size_t close = eat('(') ? h.find(')', i) : h.npos;
      std::string inside = close == h.npos ? "" : h.substr(i, close - i);
      if (close == h.npos || (inside.find(',') == h.npos &&
                              inside.find_first_not_of(" \t\n\r\f") != h.npos))
        return why = "shape in the .npy header is " + v +
                     ", not a tuple (one dim N is written (N,))",
               false;
      i = close + 1;
      if (!parseShape(inside, out.shape, why))
        return why = "bad shape in the header: " + why, false;
    }
    if (eat('}'))
      break;
    if (!eat(','))
      return why = "the .npy header has '" + value() + "' after the value of '" + key + "'",
             false;
  }
  if (skip(), i != h.size())
    return why = "the .npy header has '" + value() + "' after its dict", false;
  for (int k = 0; k < 3; ++k)
    if (!seen[k])
      return why = "the .npy header has no " + keys[k], false;
  return true;
}
} // namespace

bool readNpy(const std::string &path, Tensor &out, std::string &error) {
  std::string bytes;
  if (!readFile(path, bytes, error))
    return false;
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0)
    return error = path + " is not a .npy file", false;
  // Versions 1.0 (2-byte header length), 2.0 and 3.0 (4-byte; 3.0 is
  // 2.0 with a UTF-8 header), as numpy writes and reads them.
  int major = (unsigned char)bytes[6], minor = (unsigned char)bytes[7];
  if (major < 1 || major > 3 || minor != 0)
    return error = path + ": .npy format version " + std::to_string(major) + "." +
                   std::to_string(minor) + " is not one numpy writes (1.0, 2.0, 3.0)",
           false;
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
  if (headerLen > bytes.size() - start)
    return error = path + " is truncated", false;
  std::string header = bytes.substr(start, headerLen), why;
  NpyHeader parsed;
  if (!parseHeader(header, parsed, why))
    return error = path + ": " + why, false;
  // '<f4' as numpy writes it; '=f4' and 'f4' are native (little-endian
  // here); a byte has no order ('|b1', also spelled '<b1').
  std::string descr = parsed.descr;
  if (descr.size() == 2)
    descr = (descr[1] == '1' ? "|" : "<") + descr;
  if (descr.size() == 3 && (descr[0] == '=' || (descr[0] == '<' && descr[2] == '1')))
    descr[0] = descr[2] == '1' ? '|' : '<';
  out.dtype.clear();
  for (const DtypeInfo &d : kDtypes)
    if (d.npy && descr == d.npy)
      out.dtype = d.kf;
  if (out.dtype.empty())
    return error = path + ": dtype '" + parsed.descr +
                   "' is not one kfuse runs (f4, f8, f2, i4, i8, b1, little-endian)",
           false;
  if (parsed.fortranOrder)
    return error = path + ": Fortran-order arrays are not supported", false;
  out.shape = parsed.shape;
  int64_t elements;
  size_t want;
  if (!sizeOf(out.shape, elementSize(out.dtype), elements, want))
    return error = path + ": shape " + shapeString(out.shape) + " of " + out.dtype +
                   " is more than 2^63 - 1 bytes",
           false;
  size_t dataStart = start + headerLen;
  if (bytes.size() - dataStart != want)
    return error = path + ": " + std::to_string(bytes.size() - dataStart) +
                   " bytes of data for shape " + shapeString(out.shape) + ", expected " +
                   std::to_string(want),
           false;
  out.data.assign(bytes.begin() + dataStart, bytes.end());
  // A bool is any byte but 0 to numpy and torch (np.load gives True for
  // 2 or 255): kernels add and compare the bytes, so they are made 0 or 1.
  if (out.dtype == "i1")
    for (unsigned char &b : out.data)
      b = b != 0;
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

std::vector<std::string_view> npyPieces(const Tensor &t, std::string &header,
                                        std::vector<unsigned char> &widened) {
  const std::string *dtype = &t.dtype;
  std::string_view data(reinterpret_cast<const char *>(t.data.data()), t.data.size());
  static const std::string f32 = "f32";
  if (t.dtype == "bf16") {
    widened.resize(t.data.size() * 2);
    for (int64_t i = 0; i < t.elements(); ++i) {
      float v = float(t.at(i));
      std::memcpy(widened.data() + 4 * i, &v, 4);
    }
    dtype = &f32;
    data = std::string_view(reinterpret_cast<const char *>(widened.data()), widened.size());
  }
  std::string shape = "(";
  for (int64_t d : t.shape)
    shape += std::to_string(d) + ",";
  if (t.shape.size() > 1)
    shape.pop_back();
  shape += ")";
  std::string dict = "{'descr': '" + std::string(info(*dtype)->npy) +
                     "', 'fortran_order': False, 'shape': " + shape + ", }";
  while ((10 + dict.size() + 1) % 64 != 0)
    dict.push_back(' ');
  dict.push_back('\n');
  header = std::string("\x93NUMPY\x01\x00", 8);
  header.push_back(char(dict.size() & 0xff));
  header.push_back(char(dict.size() >> 8));
  header += dict;
  return {header, data};
}

bool writeNpy(const std::string &path, const Tensor &t, std::string &error) {
  std::string header;
  std::vector<unsigned char> widened;
  std::vector<std::string_view> pieces = npyPieces(t, header, widened);
  return writeOutputs({{path, pieces}}, error);
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
