/* reward.c -- one number per pair for reinforcement learning, from a record.
 *
 * Execution decides when it ran: a prediction that returns the gold's rows
 * earns 1 whatever it looks like, one that cannot run earns 0. A wrong result
 * earns a little partial credit for being structurally close (the calibrated
 * score, capped at `partial`), so a policy is not paid more for a near miss
 * than a small fraction of a right answer. Without a database, strict's
 * verdict decides when it was asked for (a pass, and with reward_bound a
 * bounded equivalence that far, earns 1; a refutation is a wrong answer);
 * else the calibrated score stands alone. */
#include "engine.h"

#include <math.h>

#define DEFAULT_PARTIAL 0.2

double sqlsim_reward(const sqlsim_evaluator *ev, const sqlsim_record *r, double partial) {
  if (partial < 0) partial = DEFAULT_PARTIAL;
  if (r->structure.err[0]) return 0; /* does not parse */
  if (r->exec.bird >= 0) {
    if (r->exec.err[0]) return 0;
    int ok = ev->cfg.bird_semantics ? r->exec.bird == 1 : r->exec.spider == 1;
    if (ok) return 1;
    return r->structure.has ? partial * r->score : 0;
  }
  if (r->gold_err[0] || !r->structure.has) return NAN;
  if (r->has_synth && r->synth.strict == 0) return partial * r->score; /* refuted: a wrong answer */
  if (r->has_synth && r->synth.strict == 1 &&
      (ev->cfg.reward_bound <= 0 || r->synth.bound >= ev->cfg.reward_bound))
    return 1; /* equivalent under the schema, as far as asked */
  return r->score;
}
