/* shop.h -- the small schema test_strict.c and test_solver.c judge pairs on:
 * emp -> dept (a nullable key); link (a, b) -> pair (a, b), a key of two
 * columns. */
#ifndef SQLSIM_TESTS_SHOP_H
#define SQLSIM_TESTS_SHOP_H

static const char *TABLES =
    "[{\"db_id\":\"shop\",\"table_names_original\":[\"dept\",\"emp\",\"pair\",\"link\"],"
    "\"table_names\":[\"dept\",\"emp\",\"pair\",\"link\"],"
    "\"column_names_original\":[[-1,\"*\"],[0,\"id\"],[0,\"name\"],[0,\"budget\"],"
    "[1,\"id\"],[1,\"name\"],[1,\"dept_id\"],[1,\"salary\"],[1,\"bonus\"],"
    "[2,\"a\"],[2,\"b\"],[2,\"note\"],[3,\"lid\"],[3,\"a\"],[3,\"b\"],[3,\"v\"]],"
    "\"column_names\":[[-1,\"*\"],[0,\"id\"],[0,\"name\"],[0,\"budget\"],"
    "[1,\"id\"],[1,\"name\"],[1,\"dept id\"],[1,\"salary\"],[1,\"bonus\"],"
    "[2,\"a\"],[2,\"b\"],[2,\"note\"],[3,\"lid\"],[3,\"a\"],[3,\"b\"],[3,\"v\"]],"
    "\"column_types\":[\"text\",\"number\",\"text\",\"number\",\"number\",\"text\",\"number\",\"number\",\"number\","
    "\"number\",\"number\",\"text\",\"number\",\"number\",\"number\",\"number\"],"
    "\"primary_keys\":[1,4,[9,10],12],\"foreign_keys\":[[6,1],[13,9],[14,10]]}]";

#endif
