// The one exception type of the runtime: every misuse (bad launch, bad device, driver failure,
// malformed signature) throws it with a message that says what was found and what was expected.
#pragma once
#include <stdexcept>
#include <string>

namespace tilec::rt {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace tilec::rt
