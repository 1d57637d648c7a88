/* categories.h -- what the engine adds to the categories of a diff by the
 * comparison of results in force. */
#ifndef SQLSIM_CATEGORIES_H
#define SQLSIM_CATEGORIES_H

#include "sqlsim.h"

/* Where rows are compared as tuples (BIRD): the same columns returned in
 * another order, found with nothing else, is why results differ. Added to
 * out as weak wrong_column (named only where execution shows the results
 * differ). Spider's EX matches columns by what they compute and does not see
 * it: not called there. */
void categories_column_order(const sqlsim_diff *d, sqlsim_arena *a, sqlsim_categories *out);

#endif
