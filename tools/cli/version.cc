#include "tools/cli/version.h"

#include <cstdlib>
#include <memory>
#include <sstream>

// Weak references: present when the binary links mimalloc, null otherwise (sanitizer
// builds, which bring their own allocator).
extern "C" int mi_version(void) __attribute__((weak));
extern "C" bool mi_is_in_heap_region(const void* p) __attribute__((weak));

namespace mrlocal {

std::string VersionText() {
  std::ostringstream out;
  out << "mrlocal " << MRLOCAL_VERSION << "\n";
  if (mi_version && mi_is_in_heap_region) {
    int v = mi_version();
    // Ask mimalloc whether memory from plain malloc and operator new is its own.
    void* m = std::malloc(64);
    auto n = std::make_unique<char[]>(64);
    bool serves = mi_is_in_heap_region(m) && mi_is_in_heap_region(n.get());
    std::free(m);
    out << "allocator: mimalloc " << v / 100 << "." << (v / 10) % 10 << "." << v % 10
        << (serves ? " (serving malloc and new)" : " (linked, but NOT serving malloc)") << "\n";
  } else {
    out << "allocator: system malloc (mimalloc not linked in this build)\n";
  }
  return out.str();
}

}  // namespace mrlocal
