//===- ElfCheck.cpp - an ELF file whole before dlopen maps it -------------===//
#include "ElfCheck.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace kfuse::rt {

namespace {
/// Reads `size` bytes at `offset`; false when the file has fewer.
bool readAt(int fd, uint64_t offset, void *out, size_t size) {
  char *p = static_cast<char *>(out);
  while (size > 0) {
    ssize_t n = pread(fd, p, size, off_t(offset));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    p += n;
    offset += uint64_t(n);
    size -= size_t(n);
  }
  return true;
}

/// True when [offset, offset + count * entry) lies within `fileSize`.
bool within(uint64_t offset, uint64_t count, uint64_t entry, uint64_t fileSize) {
  uint64_t bytes, end;
  return !__builtin_mul_overflow(count, entry, &bytes) &&
         !__builtin_add_overflow(offset, bytes, &end) && end <= fileSize;
}

std::string range(uint64_t offset, uint64_t size) {
  return "bytes " + std::to_string(offset) + " to " + std::to_string(offset + size);
}

template <typename Ehdr, typename Phdr, typename Shdr>
bool checkHeaders(int fd, uint64_t fileSize, std::string &why) {
  Ehdr eh;
  if (!readAt(fd, 0, &eh, sizeof(eh)))
    return why = "its ELF header is cut short", false;
  std::string size = " lies beyond the end of the file (" + std::to_string(fileSize) +
                     " bytes): it is truncated";
  if (eh.e_phnum > 0) {
    if (eh.e_phentsize != sizeof(Phdr))
      return why = "its program headers have an unknown size", false;
    if (!within(eh.e_phoff, eh.e_phnum, sizeof(Phdr), fileSize))
      return why = "its program header table" + size, false;
    std::vector<Phdr> ph(eh.e_phnum);
    if (!readAt(fd, eh.e_phoff, ph.data(), ph.size() * sizeof(Phdr)))
      return why = "its program header table" + size, false;
    for (size_t i = 0; i < ph.size(); ++i)
      if (ph[i].p_filesz > 0 && !within(ph[i].p_offset, 1, ph[i].p_filesz, fileSize))
        return why = "segment " + std::to_string(i) + " (" +
                     range(ph[i].p_offset, ph[i].p_filesz) + ")" + size,
               false;
  }
  if (eh.e_shoff == 0)
    return true;
  if (eh.e_shentsize != sizeof(Shdr))
    return why = "its section headers have an unknown size", false;
  // With 0xff00 sections or more, e_shnum is 0 and section 0's size holds
  // the count.
  uint64_t count = eh.e_shnum;
  Shdr first;
  if (!within(eh.e_shoff, 1, sizeof(Shdr), fileSize) ||
      !readAt(fd, eh.e_shoff, &first, sizeof(first)))
    return why = "its section header table" + size, false;
  if (count == 0)
    count = first.sh_size;
  if (!within(eh.e_shoff, count, sizeof(Shdr), fileSize))
    return why = "its section header table" + size, false;
  std::vector<Shdr> sh(count);
  if (!readAt(fd, eh.e_shoff, sh.data(), sh.size() * sizeof(Shdr)))
    return why = "its section header table" + size, false;
  for (size_t i = 0; i < sh.size(); ++i)
    if (sh[i].sh_type != SHT_NOBITS && sh[i].sh_size > 0 &&
        !within(sh[i].sh_offset, 1, sh[i].sh_size, fileSize))
      return why = "section " + std::to_string(i) + " (" +
                   range(sh[i].sh_offset, sh[i].sh_size) + ")" + size,
             false;
  return true;
}
} // namespace

bool checkElfFile(const std::string &path, std::string &why) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return why = std::strerror(errno), false;
  struct stat st;
  bool ok = false;
  unsigned char ident[EI_NIDENT];
  if (fstat(fd, &st) != 0) {
    why = std::strerror(errno);
  } else if (!S_ISREG(st.st_mode)) {
    why = S_ISDIR(st.st_mode) ? "it is a directory" : "it is not a regular file";
  } else if (!readAt(fd, 0, ident, sizeof(ident)) || std::memcmp(ident, ELFMAG, SELFMAG) != 0) {
    why = "it is not an ELF file";
  } else if (ident[EI_DATA] != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB
                                                                          : ELFDATA2MSB)) {
    why = "its byte order is not this machine's";
  } else if (ident[EI_CLASS] == ELFCLASS64) {
    ok = checkHeaders<Elf64_Ehdr, Elf64_Phdr, Elf64_Shdr>(fd, uint64_t(st.st_size), why);
  } else if (ident[EI_CLASS] == ELFCLASS32) {
    ok = checkHeaders<Elf32_Ehdr, Elf32_Phdr, Elf32_Shdr>(fd, uint64_t(st.st_size), why);
  } else {
    why = "its ELF class is unknown";
  }
  close(fd);
  return ok;
}

} // namespace kfuse::rt
