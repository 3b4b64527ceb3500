/* SPDX-License-Identifier: MIT */
/* Tests for tools/report_fig.h: where a bar figure's axis is cut so that outliers do not
 * flatten the rest. */
#include <criterion/criterion.h>
#include <math.h>

#include "../../tools/report_fig.h"

Test(report_fig, an_outlier_over_three_medians_cuts_the_axis_at_a_round_number)
{
	/* median 1, largest 13 > 3: 3 rounds up to 5 (1, 2, 2.5, 5 x 10^k) */
	const double a[] = {1, 1, 13, 1, NAN};
	cr_expect_float_eq(rep_clip_at(a, 5), 5.0, 1e-12);
	/* median (0.011 + 0.012) / 2 = 0.0115; 3 x 0.0115 = 0.0345 rounds up to 0.05 */
	const double b[] = {0.01, 0.012, 0.5, 0.011};
	cr_expect_float_eq(rep_clip_at(b, 4), 0.05, 1e-12);
	/* 2.5 x the median exactly at a round number stays there: median 0.8, 3 x 0.8 = 2.4 -> 2.5 */
	const double c[] = {0.8, 0.8, 9};
	cr_expect_float_eq(rep_clip_at(c, 3), 2.5, 1e-12);
}

Test(report_fig, values_within_three_medians_are_not_cut)
{
	const double a[] = {1, 2, 3};
	cr_expect_eq(rep_clip_at(a, 3), 0.0);
	/* zeros and NaNs are not values to take a median of; none left: nothing to cut */
	const double b[] = {0, NAN, 0};
	cr_expect_eq(rep_clip_at(b, 3), 0.0);
}
