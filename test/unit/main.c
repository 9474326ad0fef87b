/* main.c: runs every unit-test suite (Check). Each test_*.c file provides one suite. */
#include <check.h>
#include <stdlib.h>

Suite *args_suite(void);
Suite *front_suite(void);
Suite *fuse_suite(void);
Suite *print_suite(void);
Suite *pragma_suite(void);
Suite *deps_suite(void);
Suite *splitlen_suite(void);

int main(void)
{
	SRunner *sr = srunner_create(print_suite());
	srunner_add_suite(sr, args_suite());
	srunner_add_suite(sr, pragma_suite());
	srunner_add_suite(sr, front_suite());
	srunner_add_suite(sr, fuse_suite());
	srunner_add_suite(sr, deps_suite());
	srunner_add_suite(sr, splitlen_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
