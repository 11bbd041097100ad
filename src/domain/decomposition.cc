// The serial run's decomposition (domain/decomposition.h).
#include "domain/decomposition.h"

#include "domain/domain.h"

namespace solfec::domain {

void SerialDecomposition::GatherProblem(const Domain& d, solvers::BlockProblem& whole,
                                        std::vector<ProblemRow>& rows) {
  whole = d.last_problem();
  rows = d.last_problem_rows();
}

}  // namespace solfec::domain
