// The one way into Boost.Asio for mrlocal. Boost 1.74's awaitable.hpp uses std::exchange
// without including <utility>, which g++ 12 in C++20 mode rejects; include it first.
#pragma once

// clang-format off
#include <utility>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
// clang-format on
