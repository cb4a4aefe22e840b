// Human and JSON renderings of a solve result.
#ifndef TSUME_TOOLS_SOLVE_OUTPUT_H_
#define TSUME_TOOLS_SOLVE_OUTPUT_H_

#include <string>

#include "nlohmann/json.hpp"
#include "solver/solver.h"
#include "tools/problem_input.h"

namespace tsume {

// `j` as one line of text. Text from the input (file names, ids, notes) need not be UTF-8,
// which JSON requires: such bytes are written as U+FFFD rather than ending the run.
template <typename Json>
std::string JsonLine(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// Why a position is no mate before any search, for the text outputs: "White has no king" when
// the side not to move (the one to be mated) has none (a king lost to a typo in an SFEN);
// empty otherwise.
std::string NothingToMate(const Position& pos);

std::string FormatSolveResult(const InputProblem& problem, const Position& pos,
                              const SolveResult& result);
nlohmann::json SolveResultToJson(const InputProblem& problem, const Position& pos,
                                 const SolveResult& result);
// The result as a KIF record (tools/kif_output.h): the line when a mate was read out, the
// result in a comment at the top.
std::string SolveResultToKif(const InputProblem& problem, const Position& pos,
                             const SolveResult& result);

// Where the nodes of a solve that proved a mate went: "first_mate" {length, nodes} and
// "exact_passes", one {within, result, length (when a mate), nodes, and when the line was swept
// before the pass sweep {nodes (part of the pass's), shortened_by}} per pass. Nothing when no
// mate was proven. Json: nlohmann::json or nlohmann::ordered_json.
template <typename Json>
void AddExactPasses(const SolveResult& result, Json& j) {
  if (result.first_mate_length <= 0) return;
  j["first_mate"] = {{"length", result.first_mate_length}, {"nodes", result.first_mate_nodes}};
  Json passes = Json::array();
  for (const ExactPass& pass : result.exact_passes) {
    Json p;
    p["within"] = pass.within;
    p["result"] = ToString(pass.status);
    if (pass.status == SolveStatus::kMate) p["length"] = pass.length;
    p["nodes"] = pass.nodes;
    if (pass.sweep_nodes > 0) {
      p["sweep"] = {{"nodes", pass.sweep_nodes}, {"shortened_by", pass.sweep_shortening}};
    }
    passes.push_back(std::move(p));
  }
  j["exact_passes"] = std::move(passes);
}

}  // namespace tsume

#endif  // TSUME_TOOLS_SOLVE_OUTPUT_H_
