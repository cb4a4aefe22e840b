#include <iostream>

#include "tools/commands.h"

namespace tsume {

int RunSolve(const CommandArgs&, std::ostream&, std::ostream& err) {
  err << "tsume solve: not implemented yet\n";
  return kExitUsage;
}

}  // namespace tsume
