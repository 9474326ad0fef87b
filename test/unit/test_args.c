/* test_args.c: the command line. */
#include <string.h>

#include "driver/args.h"
#include "unit.h"

static bool parse(Args *a, const char *line)
{
	static char buf[512];
	char *argv[32];
	int argc = 0;
	snprintf(buf, sizeof buf, "%s", line);
	argv[argc++] = "fusecc";
	for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	return args_parse(a, argc, argv);
}

START_TEST(test_output_kind_from_extension)
{
	Args a;
	ck_assert(parse(&a, "x.c -o y.cu"));
	ck_assert_int_eq(a.emit, EMIT_CUDA);
	args_free(&a);
	ck_assert(parse(&a, "x.c -o y.hip"));
	ck_assert_int_eq(a.emit, EMIT_HIP);
	args_free(&a);
	ck_assert(parse(&a, "x.c -oy.fused.c"));
	ck_assert_int_eq(a.emit, EMIT_C);
	ck_assert_str_eq(a.output, "y.fused.c");
	args_free(&a);
	ck_assert(parse(&a, "--emit=ir x.c -o y.cu"));
	ck_assert_int_eq(a.emit, EMIT_IR);
	args_free(&a);
}
END_TEST

START_TEST(test_parser_flags_keep_order)
{
	Args a;
	ck_assert(parse(&a, "-Iinc -D X=1 -UY -std=c17 x.c -o - -- -Wall -DZ"));
	ck_assert_int_eq(a.clang_args.n, 7);
	ck_assert_str_eq(a.clang_args.v[0], "-Iinc");
	ck_assert_str_eq(a.clang_args.v[1], "-D");
	ck_assert_str_eq(a.clang_args.v[2], "X=1");
	ck_assert_str_eq(a.clang_args.v[3], "-UY");
	ck_assert_str_eq(a.clang_args.v[4], "-std=c17");
	ck_assert_str_eq(a.clang_args.v[5], "-Wall");
	ck_assert_str_eq(a.clang_args.v[6], "-DZ");
	ck_assert_str_eq(a.output, "-");
	args_free(&a);
}
END_TEST

START_TEST(test_dependency_flags_are_exact)
{
	Args a;
	ck_assert(parse(&a, "x.c -o x.cu -MMD -MP -MF x.d -MT tgt"));
	ck_assert(a.mmd && a.mp && !a.md);
	ck_assert_str_eq(a.mf, "x.d");
	ck_assert_str_eq(a.mt, "tgt");
	args_free(&a);
}
END_TEST

START_TEST(test_bad_command_lines)
{
	Args a;
	Captured c;
	capture_begin(&c);
	ck_assert(!parse(&a, "x.c -o y.txt"));
	args_free(&a);
	ck_assert(!parse(&a, "x.c --emit=ptx"));
	args_free(&a);
	ck_assert(!parse(&a, "x.c -fsyntax-onl"));
	args_free(&a);
	ck_assert(!parse(&a, "x.c y.c"));
	args_free(&a);
	ck_assert(!parse(&a, "x.c -o"));
	args_free(&a);
	ck_assert(!parse(&a, ""));
	args_free(&a);
	ck_assert(!parse(&a, "x.c -MF d"));
	args_free(&a);
	const char *out = capture_end(&c);
	ck_assert_ptr_nonnull(strstr(out, "fusecc: error: cannot tell the output kind from 'y.txt'"));
	ck_assert_ptr_nonnull(strstr(out, "unknown output kind 'ptx'"));
	ck_assert_ptr_nonnull(strstr(out, "did you mean '-fsyntax-only'?"));
	ck_assert_ptr_nonnull(strstr(out, "more than one input file"));
	ck_assert_ptr_nonnull(strstr(out, "missing argument after '-o'"));
	ck_assert_ptr_nonnull(strstr(out, "no input file"));
	ck_assert_ptr_nonnull(strstr(out, "-MF, -MT and -MP need -MD or -MMD"));
	free(c.text);
}
END_TEST

START_TEST(test_defaults_and_switches)
{
	Args a;
	ck_assert(parse(&a, "x.c"));
	ck_assert_int_eq(a.emit, EMIT_CUDA);
	ck_assert_ptr_null(a.output);
	ck_assert(!a.line_directives && !a.werror && !a.syntax_only && !a.md && !a.mmd);
	args_free(&a);
	ck_assert(parse(&a, "x.c -o -"));
	ck_assert_int_eq(a.emit, EMIT_CUDA);
	args_free(&a);
	ck_assert(parse(&a, "--emit=hip x.c -o -"));
	ck_assert_int_eq(a.emit, EMIT_HIP);
	args_free(&a);
	ck_assert(parse(&a, "--emit=c x.c"));
	ck_assert_int_eq(a.emit, EMIT_C);
	args_free(&a);
	ck_assert(parse(&a, "x.c --line -Werror"));
	ck_assert(a.line_directives && a.werror);
	args_free(&a);
	ck_assert(parse(&a, "x.c --line --no-line"));
	ck_assert(!a.line_directives);
	args_free(&a);
	/* -fsyntax-only writes nothing: the output's name does not matter. */
	ck_assert(parse(&a, "x.c -fsyntax-only -o y.txt"));
	ck_assert(a.syntax_only);
	args_free(&a);
}
END_TEST

START_TEST(test_info_options_need_no_input)
{
	Args a;
	ck_assert(parse(&a, "--version"));
	ck_assert(a.version && !a.input);
	args_free(&a);
	ck_assert(parse(&a, "--help"));
	ck_assert(a.help);
	args_free(&a);
	ck_assert(parse(&a, "-h"));
	ck_assert(a.help);
	args_free(&a);
	ck_assert(parse(&a, "--print-include-dir"));
	ck_assert(a.print_include_dir);
	args_free(&a);
	ck_assert(parse(&a, "--help-pragmas"));
	ck_assert(a.help_pragmas);
	args_free(&a);
	ck_assert_ptr_nonnull(strstr(args_usage, "70 internal error"));
}
END_TEST

START_TEST(test_dependency_flags_glued_and_md)
{
	Args a;
	ck_assert(parse(&a, "x.c -MD -MFdeps/x.d -MTout/x.cu"));
	ck_assert(a.md && !a.mmd && !a.mp);
	ck_assert_str_eq(a.mf, "deps/x.d");
	ck_assert_str_eq(a.mt, "out/x.cu");
	args_free(&a);
	/* Standard output: the dependency file and its target must be named. */
	ck_assert(parse(&a, "x.c -o - -MMD -MF x.d -MT x.cu"));
	args_free(&a);
	ck_assert(parse(&a, "x.c -o - -MD -fsyntax-only"));
	args_free(&a);
	Captured c;
	capture_begin(&c);
	ck_assert(!parse(&a, "x.c -o - -MD"));
	args_free(&a);
	ck_assert(!parse(&a, "x.c -o - -MMD -MF x.d"));
	args_free(&a);
	ck_assert(!parse(&a, "x.c -MP"));
	args_free(&a);
	ck_assert(!parse(&a, "x.c -MD -MT"));
	args_free(&a);
	const char *out = capture_end(&c);
	ck_assert_ptr_nonnull(strstr(out, "with '-o -', -MD and -MMD need -MF FILE and -MT TARGET"));
	ck_assert_ptr_nonnull(strstr(out, "-MF, -MT and -MP need -MD or -MMD"));
	ck_assert_ptr_nonnull(strstr(out, "missing argument after '-MT'"));
	free(c.text);
}
END_TEST

START_TEST(test_more_bad_command_lines)
{
	Args a;
	Captured c;
	capture_begin(&c);
	ck_assert(!parse(&a, "x.c -o a.c -o b.c"));
	args_free(&a);
	ck_assert(!parse(&a, "x.c -I"));
	args_free(&a);
	ck_assert(!parse(&a, "x.c --emit=CUDA"));
	args_free(&a);
	ck_assert(!parse(&a, "x.c --bogus-option-xyz"));
	args_free(&a);
	ck_assert(!parse(&a, "-- -DX x.c"));
	args_free(&a);
	const char *out = capture_end(&c);
	ck_assert_ptr_nonnull(strstr(out, "more than one '-o'"));
	ck_assert_ptr_nonnull(strstr(out, "missing argument after '-I'"));
	ck_assert_ptr_nonnull(strstr(out, "unknown output kind 'CUDA'"));
	ck_assert_ptr_nonnull(strstr(out, "unknown option '--bogus-option-xyz'"));
	/* After `--` everything goes to the parser, the input file too: none is left. */
	ck_assert_ptr_nonnull(strstr(out, "no input file"));
	free(c.text);
}
END_TEST

Suite *args_suite(void)
{
	Suite *s = suite_create("args");
	TCase *tc = tcase_create("args");
	tcase_add_test(tc, test_output_kind_from_extension);
	tcase_add_test(tc, test_parser_flags_keep_order);
	tcase_add_test(tc, test_dependency_flags_are_exact);
	tcase_add_test(tc, test_bad_command_lines);
	tcase_add_test(tc, test_defaults_and_switches);
	tcase_add_test(tc, test_info_options_need_no_input);
	tcase_add_test(tc, test_dependency_flags_glued_and_md);
	tcase_add_test(tc, test_more_bad_command_lines);
	suite_add_tcase(s, tc);
	return s;
}
