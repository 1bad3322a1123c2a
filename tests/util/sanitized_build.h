// Whether this build runs under AddressSanitizer or ThreadSanitizer. Such builds are ~20x
// slower and look for memory errors and races rather than rare schedules: the random
// property tests draw fewer workloads there.
#pragma once

namespace mrlocal::testing {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitizedBuild = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kSanitizedBuild = true;
#else
inline constexpr bool kSanitizedBuild = false;
#endif
#else
inline constexpr bool kSanitizedBuild = false;
#endif

}  // namespace mrlocal::testing
