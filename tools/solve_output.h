// Human and JSON renderings of a solve result.
#ifndef TSUME_TOOLS_SOLVE_OUTPUT_H_
#define TSUME_TOOLS_SOLVE_OUTPUT_H_

#include <string>

#include "nlohmann/json.hpp"
#include "solver/solver.h"
#include "tools/problem_input.h"

namespace tsume {

std::string FormatSolveResult(const InputProblem& problem, const Position& pos,
                              const SolveResult& result);
nlohmann::json SolveResultToJson(const InputProblem& problem, const Position& pos,
                                 const SolveResult& result);

}  // namespace tsume

#endif  // TSUME_TOOLS_SOLVE_OUTPUT_H_
