/* SPDX-License-Identifier: MIT */
/* frontend/fe.h parsing: accepted syntax, parameter layout, and errors with file:line:column. */
#include "fe_test.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

static void expect_error(const char *text, enum sim_err code, const char *want_prefix,
			 const char *want_substr)
{
	char msg[1024];
	struct sim_error err;
	fe_t_parse_fail(text, msg, sizeof msg, &err);
	cr_assert_eq(err.code, code, "code %d: %s", err.code, msg);
	cr_assert(strncmp(msg, want_prefix, strlen(want_prefix)) == 0, "got '%s', want prefix '%s'", msg,
		  want_prefix);
	cr_assert(strstr(msg, want_substr), "got '%s', want '%s' in it", msg, want_substr);
}

Test(parser, unknown_module_directive_names_line_and_column)
{
	expect_error(HDR "  .bogus 3;\n", SIM_ERR_INPUT, "bad.ptx:4:3:", "expected a directive");
}

Test(parser, missing_semicolon_is_reported_at_the_next_token)
{
	/* line 6 is "add.s32 %r1, %r1, 1" with no ';', so the next token (ret on line 7, col 2) is unexpected */
	expect_error(HDR ".visible .entry k()\n{\n.reg .b32 %r<2>;\nadd.s32 %r1, %r1, 1\n ret;\n}\n",
		     SIM_ERR_INPUT, "bad.ptx:8:2:", "expected ',' or ';'");
}

Test(parser, undeclared_register_is_an_error)
{
	expect_error(HDR ".visible .entry k()\n{\n.reg .b32 %r<2>;\nadd.s32 %r1, %q0, 1;\nret;\n}\n",
		     SIM_ERR_INPUT, "bad.ptx:7:14:", "undeclared register");
}

Test(parser, register_beyond_declared_range_is_undeclared)
{
	/* %r<2> declares %r0 and %r1 only */
	expect_error(HDR ".visible .entry k()\n{\n.reg .b32 %r<2>;\nmov.u32 %r2, 0;\nret;\n}\n",
		     SIM_ERR_INPUT, "bad.ptx:7:9:", "undeclared register");
}

Test(parser, unsupported_opcode_names_opcode_and_line)
{
	expect_error(HDR ".visible .entry k()\n{\n.reg .b32 %r<2>;\n  suld.b.1d.b32 %r1, [%r0];\nret;\n}\n",
		     SIM_ERR_INPUT, "bad.ptx:7:3: suld:", "unsupported opcode");
}

Test(parser, unsupported_texture_geometry_is_refused)
{
	/* tex.1d/.2d with .v4 results are implemented; 3D textures are not */
	expect_error(HDR ".visible .entry k()\n{\n.reg .f32 %f<5>;\n.reg .b64 %rd<2>;\n"
		     "tex.3d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f2, %f3, %f4}];\nret;\n}\n",
		     SIM_ERR_INPUT, "bad.ptx:8:1: tex.3d.v4.f32.f32:", "unsupported opcode");
}

Test(parser, unsupported_modifier_is_refused_at_load)
{
	expect_error(HDR ".visible .entry k()\n{\n.reg .b32 %r<2>;\nadd.bogus.s32 %r1, %r1, 1;\nret;\n}\n",
		     SIM_ERR_INPUT, "bad.ptx:7:1:", "unsupported opcode or modifier");
}

Test(parser, undefined_label_is_reported_where_it_is_used)
{
	expect_error(HDR ".visible .entry k()\n{\nbra.uni $L_nowhere;\nret;\n}\n",
		     SIM_ERR_INPUT, "bad.ptx:6:9:", "undefined label");
}

Test(parser, wrong_operand_count)
{
	expect_error(HDR ".visible .entry k()\n{\n.reg .b32 %r<3>;\nadd.s32 %r1, %r2;\nret;\n}\n",
		     SIM_ERR_INPUT, "bad.ptx:7:17:", "add expects 3 operands, found 2");
}

Test(parser, unterminated_body)
{
	expect_error(HDR ".visible .entry k()\n{\nret;\n", SIM_ERR_INPUT, "bad.ptx:7:1:",
		     "expected '}'");
}

Test(parser, bad_float_literal)
{
	expect_error(HDR ".visible .entry k()\n{\n.reg .f32 %f<2>;\nmov.f32 %f1, 0f3F80;\nret;\n}\n",
		     SIM_ERR_INPUT, "bad.ptx:7:14:", "expected an operand");
}

Test(parser, missing_file_is_an_io_error)
{
	struct fe_module *m = NULL;
	struct sim_error err;
	sim_error_clear(&err);
	cr_assert_eq(fe_module_load("tests/frontend/data/no-such.ptx", &m, &err), SIM_ERR_IO);
	cr_assert_null(m);
}

Test(parser, bmsk_and_match_need_their_mode_and_type)
{
	expect_error(HDR ".visible .entry k()\n{\n.reg .b32 %r<4>;\nbmsk.b32 %r1, %r2, %r3;\nret;\n}\n",
		     SIM_ERR_INPUT, "bad.ptx:7:1:", "unsupported opcode or modifier");
	expect_error(HDR ".visible .entry k()\n{\n.reg .b32 %r<4>;\nbmsk.clamp.u32 %r1, %r2, %r3;\nret;\n}\n",
		     SIM_ERR_INPUT, "bad.ptx:7:1:", "unsupported opcode or modifier");
	expect_error(HDR ".visible .entry k()\n{\n.reg .b32 %r<4>;\nmatch.sync.b32 %r1, %r2, %r3;\nret;\n}\n",
		     SIM_ERR_INPUT, "bad.ptx:7:1:", "unsupported opcode or modifier");
	expect_error(HDR ".visible .entry k()\n{\n.reg .b32 %r<4>;\nmatch.any.sync.b16 %r1, %r2, %r3;\nret;\n}\n",
		     SIM_ERR_INPUT, "bad.ptx:7:1:", "unsupported opcode or modifier");
	expect_error(HDR ".visible .entry k()\n{\n.reg .b32 %r<4>;\nmatch.any.sync.b32 %r1, %r2;\nret;\n}\n",
		     SIM_ERR_INPUT, "bad.ptx:7:", "match expects 3 operands");
}

static const char *accepted =
	HDR
	"// comment\n/* block\n comment */\n"
	".const .align 4 .b8 tab[8] = {1, 2, 3, 4, 5, 6, 7, 8};\n"
	".global .align 8 .f64 gd[2] = {0d3FF0000000000000, 2.5};\n"
	".extern .shared .align 16 .b8 dyn[];\n"
	".func (.param .b32 r) f(.param .b32 a)\n"
	"{\n .reg .b32 %r<3>;\n ld.param.b32 %r1, [a];\n st.param.b32 [r+0], %r1;\n ret;\n}\n"
	".visible .entry k(\n .param .u32 k_a,\n .param .align 8 .b8 k_s[16],\n .param .u64 .ptr .global .align 8 k_p\n)\n"
	".maxntid 128, 1, 1\n.minnctapersm 2\n"
	"{\n"
	" .reg .pred %p<3>;\n .reg .b32 %r<10>;\n .reg .b64 %rd<4>;\n .reg .f32 %f<4>;\n"
	" .local .align 4 .b8 depot[24];\n"
	" .shared .align 4 .b8 stat[64];\n"
	" .pragma \"nounroll\";\n"
	" ld.param.u32 %r1, [k_a];\n"
	" ld.param.v2.u32 {%r2, %r3}, [k_s+8];\n"
	" ld.const.u32 %r4, [tab+4];\n"
	" mov.u32 %r5, stat;\n"
	" mov.f32 %f1, 0f3F800000;\n"
	" setp.lt.u32 %p1|%p2, %r1, 10;\n"
	" @!%p1 bra $L_end;\n"
	" { .reg .b32 %t; mov.u32 %t, 1; }\n"
	" { .param .b32 pa; st.param.b32 [pa], %r1; .param .b32 pr;\n"
	"   call.uni (pr), f, (pa); ld.param.b32 %r6, [pr]; }\n"
	"$L_end:\n"
	" ret;\n"
	"}\n";

Test(parser, accepts_nvcc_syntax_and_lays_out_params)
{
	struct fe_module *m = fe_t_load_str(accepted);
	struct sim_error err;
	cr_assert_eq(fe_module_kernel_count(m), 1); /* the .func is not a kernel */
	cr_assert_str_eq(fe_module_kernel_name(m, 0), "k");
	uint32_t n, off, size, align;
	cr_assert_eq(fe_kernel_params(m, "k", &n, &err), 0);
	cr_assert_eq(n, 3);
	/* u32 at 0; the 16-byte struct aligned to 8 -> 8; the u64 after it at 24 */
	cr_assert_eq(fe_kernel_param(m, "k", 0, &off, &size, &align, &err), 0);
	cr_assert(off == 0 && size == 4);
	cr_assert_eq(fe_kernel_param(m, "k", 1, &off, &size, &align, &err), 0);
	cr_assert(off == 8 && size == 16 && align == 8);
	cr_assert_eq(fe_kernel_param(m, "k", 2, &off, &size, &align, &err), 0);
	cr_assert(off == 24 && size == 8);
	cr_assert_eq(fe_kernel_param(m, "k", 3, &off, &size, &align, &err), SIM_ERR_INPUT);
	cr_assert_eq(fe_kernel_params(m, "nope", &n, &err), SIM_ERR_INPUT);
	struct fe_launch_info info;
	cr_assert_eq(fe_kernel_info(m, "k", &info, &err), 0);
	cr_assert_eq(info.shared_bytes_per_cta, 64);    /* static "stat" only; dyn[] is per launch */
	cr_assert_eq(info.local_bytes_per_thread, 24);
	/* 12 kernel instructions (ret included) + 3 of f, linked after the kernel */
	cr_assert_eq(info.n_insts, 12 + 3, "n_insts %u", info.n_insts);
	cr_assert_str_eq(info.insts[0].text, "ld.param.u32 %r1, [k_a];");
	cr_assert_eq(info.insts[0].src_line, 32); /* 3 header + 28 lines above it */
	fe_module_destroy(m);
}

Test(parser, wi_static_describes_registers_and_memory)
{
	struct fe_module *m = fe_t_load_file("tests/frontend/data/misc.ptx");
	struct fe_launch_info info;
	struct sim_error err;
	cr_assert_eq(fe_kernel_info(m, "_Z4vaddPKfS0_Pfi", &info, &err), 0);
	/* pc 15: "ld.global.f32 %f1, [%rd8];" */
	const struct wi_static *ld = &info.insts[15];
	cr_assert_str_eq(ld->text, "ld.global.f32 %f1, [%rd8];");
	cr_assert_eq(ld->unit, WI_UNIT_LDST);
	cr_assert_eq(ld->space, WI_SPACE_GLOBAL);
	cr_assert_eq(ld->mem_kind, WI_MEM_LOAD);
	cr_assert_eq(ld->access_bytes, 4);
	cr_assert_eq(ld->vec, 1);
	cr_assert(ld->flags & WI_F_LONG_LAT);
	cr_assert_eq(ld->n_src, 1);
	cr_assert_eq(ld->n_dst, 1);
	/* pc 9: "@%p1 bra $L__BB0_2;" reads the guard, is a conditional branch */
	const struct wi_static *br = &info.insts[9];
	cr_assert(br->flags & WI_F_BRANCH);
	cr_assert(!(br->flags & WI_F_UNCOND));
	cr_assert_eq(br->n_src, 1);
	cr_assert_eq(br->n_dst, 0);
	/* pc 7: mad.lo.s32 %r1, %r3, %r4, %r5: three sources, one destination, a multiply */
	const struct wi_static *mad = &info.insts[7];
	cr_assert_eq(mad->n_src, 3);
	cr_assert_eq(mad->n_dst, 1);
	cr_assert_eq(mad->lat_class, WI_LAT_MUL);
	cr_assert_eq(info.insts[info.n_insts - 1].flags & WI_F_BRANCH, WI_F_BRANCH); /* ret */
	fe_module_destroy(m);
}

Test(parser, integer_ops_other_than_add_sub_min_max_are_the_logic_latency_class)
{
	/* GPGPU-Sim 4.2 times add/sub/min/max by -ptx_opcode_latency_int and the rest of the
	 * integer ops at its default latency: the logic class (float ops stay fp32). */
	static const char ptx[] = HDR ".visible .entry k()\n{\n.reg .b32 %r<8>;\n.reg .f32 %f<3>;\n"
		".reg .pred %p<3>;\n"
		"add.s32 %r1, %r2, 1;\nsub.s32 %r1, %r2, 1;\nmin.s32 %r1, %r2, 1;\n"
		"xor.b32 %r1, %r2, 1;\nshl.b32 %r1, %r2, 1;\nmov.u32 %r1, 3;\nsetp.lt.u32 %p1, %r2, 3;\n"
		"cvt.u32.u16 %r1, %r2;\nselp.b32 %r1, %r2, %r3, %p1;\n"
		"setp.lt.f32 %p2, %f1, %f2;\ncvt.rn.f32.s32 %f1, %r2;\nret;\n}\n";
	struct fe_module *m = NULL;
	struct sim_error err = {0};
	cr_assert_eq(fe_module_parse_string("t.ptx", ptx, &m, &err), 0, "%s:%d: %s", err.file, err.line, err.msg);
	struct fe_launch_info info;
	cr_assert_eq(fe_kernel_info(m, "k", &info, &err), 0, "%s", err.msg);
	const uint8_t want[] = {WI_LAT_INT, WI_LAT_INT, WI_LAT_INT, WI_LAT_LOGIC, WI_LAT_LOGIC,
				WI_LAT_LOGIC, WI_LAT_LOGIC, WI_LAT_LOGIC, WI_LAT_LOGIC, WI_LAT_FP32, WI_LAT_FP32};
	for (unsigned i = 0; i < sizeof want; i++)
		cr_assert_eq(info.insts[i].lat_class, want[i], "pc %u (%s): class %u", i, info.insts[i].text,
			     info.insts[i].lat_class);
	fe_module_destroy(m);
}

Test(parser, memory_operand_must_be_an_address)
{
	expect_error(HDR ".visible .entry k()\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<2>;\nld.global.u32 %r1, %rd1;\nret;\n}\n",
		     SIM_ERR_INPUT, "bad.ptx:8:1:", "ld: operand 2 must be an address");
}

/* Issue 19: what ptxas refuses is refused at load, with line and column. */
Test(parser, module_without_version_or_target_is_refused)
{
	expect_error(".target sm_75\n.visible .entry k()\n{\n\tret;\n}\n", SIM_ERR_INPUT, "bad.ptx:1:1:",
		     "starts with .version");
	expect_error(".version 9.0\n.visible .entry k()\n{\n\tret;\n}\n", SIM_ERR_INPUT, "bad.ptx:2:1:",
		     ".target must follow .version");
}

Test(parser, predicate_registers_only_where_a_predicate_goes)
{
	expect_error(HDR ".visible .entry k()\n{\n.reg .pred %p<2>;\n.reg .b32 %r<3>;\n"
		     "shl.b32 %r1, %p1, 2;\nret;\n}\n",
		     SIM_ERR_INPUT, "bad.ptx:8:14:", "shl: operand 2 holds a .pred register");
	expect_error(HDR ".visible .entry k()\n{\n.reg .pred %p<2>;\n.reg .b32 %r<3>;\n"
		     "setp.ne.and.s32 %p1, %r1, 0, %r2;\nret;\n}\n",
		     SIM_ERR_INPUT, "bad.ptx:8:30:", "setp: operand 4 (%r2) must be a .pred register");
	/* and nvcc's shapes pass: setp p|q, selp with a predicate, and.pred, a guard */
	struct fe_module *m = fe_t_load_str(HDR ".visible .entry k()\n{\n.reg .pred %p<4>;\n.reg .b32 %r<3>;\n"
					 "setp.lt.s32 %p1|%p2, %r1, 5;\nselp.b32 %r2, 1, 0, %p1;\n"
					 "and.pred %p3, %p1, %p2;\n@%p3 add.s32 %r1, %r1, -1;\nret;\n}\n");
	fe_module_destroy(m);
}

Test(parser, immediates_must_fit_the_instruction_type)
{
	expect_error(HDR ".visible .entry k()\n{\n.reg .b32 %r<3>;\nand.b32 %r1, %r2, 4294967296;\nret;\n}\n",
		     SIM_ERR_INPUT, "bad.ptx:7:19:", "immediate 4294967296 does not fit the 32-bit");
	/* 32-bit bit patterns and negative values both fit .b32/.u32 */
	struct fe_module *m = fe_t_load_str(HDR ".visible .entry k()\n{\n.reg .b32 %r<3>;\n"
					 "and.b32 %r1, %r2, 4294967295;\nadd.u32 %r1, %r1, -1;\nret;\n}\n");
	fe_module_destroy(m);
}

Test(parser, vector_operand_matches_the_opcode_width)
{
	expect_error(HDR ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<5>;\n.reg .b64 %rd<2>;\n"
		     "ld.param.u64 %rd1, [p];\nld.global.v2.u32 {%r1, %r2, %r3, %r4}, [%rd1];\nret;\n}\n",
		     SIM_ERR_INPUT, "bad.ptx:9:18:", "ld.v2: operand 1 has 4 elements, the opcode moves 2");
}

Test(parser, deeply_nested_blocks_end_with_a_located_error)
{
	/* 50,000 levels overflowed the stack of the recursive block parser */
	size_t n = 50000;
	char *text = malloc(strlen(HDR) + 2 * n + 64);
	cr_assert(text);
	char *p = text + sprintf(text, HDR ".visible .entry k()\n{\n");
	memset(p, '{', n);
	p += n;
	memset(p, '}', n);
	p += n;
	strcpy(p, "\nret;\n}\n");
	expect_error(text, SIM_ERR_INPUT, "bad.ptx:6:257:", "nested more than 256 deep");
	free(text);
}
