/* SPDX-License-Identifier: MIT */
/* gnuplot scripts for the report's figures: each is written once per terminal (SVG, then PNG
 * by pngcairo) with `noenhanced` so that names such as no_warp are printed as they are. */
#include "report_fig.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Okabe-Ito's eight, then Tol's muted and dark sets: no two alike, the baseline's a neutral
 * grey so that the variants stand out against it. */
static const char *const palette[] = {
	"#6e6e6e", "#0072b2", "#e69f00", "#009e73", "#d55e00", "#cc79a7", "#56b4e9", "#f0e442",
	"#332288", "#117733", "#882255", "#44aa99", "#999933", "#aa4499", "#88ccee", "#ddcc77",
	"#661100", "#6699cc", "#000000", "#ee99aa",
};
#define N_PALETTE ((int)(sizeof palette / sizeof palette[0]))

const char *rep_colour(int i)
{
	return palette[i % N_PALETTE];
}

/* The fill of series i: solid for the first round of the palette, then hatched patterns. */
static void fill_style(FILE *f, int i)
{
	if (i < N_PALETTE)
		fprintf(f, "fs solid 0.9 border rgb '#303030'");
	else
		fprintf(f, "fs pattern %d border rgb '#303030'", 1 + (i / N_PALETTE - 1) % 7);
}

void rep_gp_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '\'')
			fputc('\'', f);
		fputc(ch < 0x20 || ch == 0x7f ? ' ' : ch, f);
	}
	fputc('\'', f);
}

/* A label in a .dat file: one column (double-quoted, as gnuplot reads data), a double quote in
 * the name shown as a single one and a control character as a space, so that no name can end
 * the line or the column early. */
static void dat_label(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		fputc(ch == '"' ? '\'' : ch < 0x20 || ch == 0x7f ? ' ' : ch, f);
	}
	fputc('"', f);
}

/* A comment line in a .dat file (the text kept on one line). */
static void dat_comment(FILE *f, const char *s)
{
	fputs("# ", f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		fputc(ch < 0x20 || ch == 0x7f ? ' ' : ch, f);
	}
}

void rep_gp_terminal(FILE *f, int k, const char *stem, int w, int h)
{
	char out[PATH_MAX];
	snprintf(out, sizeof out, "%s.%s", stem, k == 0 ? "svg" : "png");
	if (k == 0)
		fprintf(f, "set terminal svg size %d,%d dynamic noenhanced font 'Sans,12' background '#ffffff'\n", w, h);
	else
		fprintf(f, "set terminal pngcairo size %d,%d noenhanced font 'Sans,10' background '#ffffff'\n", w, h);
	fprintf(f, "set output ");
	rep_gp_str(f, out);
	fputc('\n', f);
}

/* The figure's data file, as a gnuplot string. */
static void gp_dat(FILE *f, const char *stem)
{
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s.dat", stem);
	rep_gp_str(f, p);
}

/* A child's report of why it could not run gnuplot, written where the parent reads it. */
static void child_fail(int fd, int code)
{
	int e = errno;
	if (write(fd, &e, sizeof e) != (ssize_t)sizeof e)
		_exit(code);
	_exit(code);
}

int rep_gnuplot(const char *plots, const char *name, struct sim_error *err)
{
	/* No shell: gnuplot gets its script as one argument ("./" first, so that no name reads as
	 * an option) in the plots directory, its messages into name.gnuplot.log. */
	char script[PATH_MAX], log[PATH_MAX], where[PATH_MAX];
	int n1 = snprintf(script, sizeof script, "./%s.gp", name);
	int n2 = snprintf(log, sizeof log, "%s.gnuplot.log", name);
	int n3 = snprintf(where, sizeof where, "%s/%s.gnuplot.log", plots, name);
	if (n1 < 0 || n2 < 0 || n3 < 0 || (size_t)n1 >= sizeof script || (size_t)n3 >= sizeof where)
		return sim_error_set(err, SIM_ERR_USAGE, plots, 0, 0, name, "figure path too long");
	int pipefd[2];
	/* close-on-exec: a successful exec closes the child's end, so the parent reads nothing */
	if (pipe(pipefd) || fcntl(pipefd[0], F_SETFD, FD_CLOEXEC) || fcntl(pipefd[1], F_SETFD, FD_CLOEXEC))
		return sim_error_set(err, SIM_ERR_IO, plots, 0, 0, name, "cannot start gnuplot: %s", strerror(errno));
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return sim_error_set(err, SIM_ERR_IO, plots, 0, 0, name, "cannot start gnuplot: %s", strerror(errno));
	}
	if (pid == 0) {
		/* the child: only async-signal-safe calls until exec */
		if (chdir(plots))
			child_fail(pipefd[1], 126);
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int nul = open("/dev/null", O_RDWR);
		if (fd < 0 || nul < 0 || dup2(nul, 0) < 0 || dup2(nul, 1) < 0 || dup2(fd, 2) < 0)
			child_fail(pipefd[1], 126);
		char *const argv[] = {"gnuplot", script, NULL};
		execvp("gnuplot", argv);
		child_fail(pipefd[1], 127);
	}
	close(pipefd[1]);
	int child_errno = 0;
	ssize_t got = read(pipefd[0], &child_errno, sizeof child_errno);
	close(pipefd[0]);
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (got == (ssize_t)sizeof child_errno && WIFEXITED(st) && WEXITSTATUS(st) == 127)
		return sim_error_set(err, SIM_ERR_IO, NULL, 0, 0, "gnuplot",
				     "cannot run gnuplot: %s (install Debian's gnuplot-nox)", strerror(child_errno));
	if (got == (ssize_t)sizeof child_errno)
		return sim_error_set(err, SIM_ERR_IO, plots, 0, 0, name, "cannot start gnuplot there: %s",
				     strerror(child_errno));
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		/* the first line of gnuplot's complaint, so that the cause is on screen */
		char first[256] = "";
		FILE *l = fopen(where, "r");
		while (l && fgets(first, sizeof first, l) && !first[strspn(first, " \t\r\n^")])
			;
		if (l)
			fclose(l);
		first[strcspn(first, "\r\n")] = '\0';
		return sim_error_set(err, SIM_ERR_IO, where, 0, 0, name, "gnuplot failed on %s.gp%s%s", name,
				     first[0] ? ": " : "", first);
	}
	return 0;
}

static FILE *open_in(const char *plots, const char *name, const char *ext, struct sim_error *err)
{
	char p[PATH_MAX + 64];
	snprintf(p, sizeof p, "%s/%s.%s", plots, name, ext);
	FILE *f = fopen(p, "w");
	if (!f)
		sim_error_set(err, SIM_ERR_IO, p, 0, 0, NULL, "cannot write: %s", strerror(errno));
	return f;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The smallest of 1, 2, 2.5, 5 x 10^k at or above x (x > 0). */
static double round_up(double x)
{
	double p = pow(10.0, floor(log10(x)));
	static const double steps[] = {1, 2, 2.5, 5, 10};
	for (int i = 0; i < 5; i++)
		if (steps[i] * p >= x * (1 - 1e-12))
			return steps[i] * p;
	return 10 * p;
}

double rep_clip_at(const double *val, int n)
{
	double *v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
	if (!v)
		return 0;
	int m = 0;
	double max = 0;
	for (int i = 0; i < n; i++)
		if (isfinite(val[i]) && val[i] > 0) {
			v[m++] = val[i];
			max = val[i] > max ? val[i] : max;
		}
	double clip = 0;
	if (m) {
		qsort(v, (size_t)m, sizeof *v, cmp_double);
		double med = m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
		if (max > 3 * med)
			clip = round_up(3 * med);
	}
	free(v);
	return clip;
}

int rep_bars_plot(const char *plots, struct rep_bars *b, bool *drawn, struct sim_error *err)
{
	int n = b->n_rows * b->n_series;
	bool any = false;
	for (int i = 0; i < n; i++)
		any = any || isfinite(b->val[i]);
	*drawn = any;
	b->clip_y = 0;
	if (!any)
		return 0;
	FILE *f = open_in(plots, b->name, "dat", err);
	if (!f)
		return err->code;
	dat_comment(f, b->title);
	fprintf(f, ": ");
	dat_comment(f, b->ylabel);
	fprintf(f, "\n# row, then one column per series:");
	for (int s = 0; s < b->n_series; s++) {
		fputc(' ', f);
		dat_label(f, b->series[s]);
	}
	fprintf(f, "\n");
	for (int r = 0; r < b->n_rows; r++) {
		dat_label(f, b->rows[r]);
		for (int s = 0; s < b->n_series; s++) {
			double x = b->val[r * b->n_series + s];
			if (isfinite(x))
				fprintf(f, " %.6g", x);
			else
				fprintf(f, " NaN");
		}
		fprintf(f, "\n");
	}
	fclose(f);
	double top = b->ymax;
	if (top <= 0) {
		b->clip_y = rep_clip_at(b->val, n);
		top = b->clip_y;
	}
	f = open_in(plots, b->name, "gp", err);
	if (!f)
		return err->code;
	/* Bars are placed by hand (row r at x = r, series side by side within 0.8 of it) so that
	 * the clipped values can be written on their own bars. */
	double bw = 0.8 / b->n_series;
	int w = 260 + b->n_rows * (b->n_series * 10 + 24);
	w = w < 900 ? 900 : w > 2400 ? 2400 : w;
	for (int k = 0; k < 2; k++) {
		rep_gp_terminal(f, k, b->name, w, 480);
		fprintf(f, "set title ");
		rep_gp_str(f, b->title);
		fprintf(f, "\nset ylabel ");
		rep_gp_str(f, b->ylabel);
		fprintf(f, "\nset datafile missing 'NaN'\nset boxwidth %.6f absolute\n", bw);
		fprintf(f, "set xrange [-0.6:%d.6]\nset xtics rotate by -30 nomirror\nset grid ytics\n"
			   "set key outside right top\nunset arrow\n", b->n_rows - 1);
		if (top > 0) {
			/* a cut axis stops its tics at the cut; the room above holds the values */
			double step = round_up(top / 6);
			fprintf(f, "set yrange [0:%g]\nset ytics 0,%g,%g\n", b->ymax > 0 ? top : top * 1.2, step, top);
		} else {
			fprintf(f, "set yrange [0:*]\nset ytics autofreq\n");
		}
		if (b->ref_y > 0)
			fprintf(f, "set arrow 1 from graph 0, first %g to graph 1, first %g nohead dt 2 lw 1.5 "
				   "lc rgb '#000000' front\n", b->ref_y, b->ref_y);
		if (b->n_rows > 1) /* the summary row stands apart */
			fprintf(f, "set arrow 2 from %d.5, graph 0 to %d.5, graph 1 nohead dt 3 lc rgb '#808080'\n",
				b->n_rows - 2, b->n_rows - 2);
		fprintf(f, "CLIP = %g\ncut(y) = %s\nplot ", b->clip_y, b->clip_y > 0 ? "y > CLIP ? CLIP : y" : "y");
		for (int s = 0; s < b->n_series; s++) {
			double off = (s - (b->n_series - 1) / 2.0) * bw;
			fprintf(f, "%s", s ? ", \\\n  " : "");
			gp_dat(f, b->name);
			fprintf(f, " using ($0%+.6f):(cut(column(%d)))%s with boxes lc rgb ", off, s + 2,
				s ? "" : ":xtic(1)");
			rep_gp_str(f, rep_colour(s));
			fputc(' ', f);
			fill_style(f, s);
			fprintf(f, " title ");
			rep_gp_str(f, b->series[s]);
		}
		if (b->clip_y > 0)
			for (int s = 0; s < b->n_series; s++) {
				double off = (s - (b->n_series - 1) / 2.0) * bw;
				fprintf(f, ", \\\n  ");
				gp_dat(f, b->name);
				fprintf(f, " using ($0%+.6f):(CLIP):(column(%d) > CLIP ? "
					   "sprintf('%%.3g', column(%d)) : '') with labels rotate by 90 left "
					   "offset 0,0.4 font ',9' notitle", off, s + 2, s + 2);
			}
		fprintf(f, "\n");
	}
	fclose(f);
	return rep_gnuplot(plots, b->name, err);
}

int rep_stack_plot(const char *plots, const struct rep_stack *s, bool *drawn, struct sim_error *err)
{
	int n = s->n_groups * s->n_series * s->n_classes;
	bool any = false;
	for (int i = 0; i < n; i++)
		any = any || isfinite(s->share[i]);
	*drawn = any;
	if (!any)
		return 0;
	/* One block per group (gnuplot's `index`), one line per series: its cumulative shares, so
	 * that drawing the classes from the last down stacks them. */
	FILE *f = open_in(plots, s->name, "dat", err);
	if (!f)
		return err->code;
	for (int g = 0; g < s->n_groups; g++) {
		fprintf(f, "%s", g ? "\n\n" : "");
		dat_comment(f, s->groups[g]);
		fputc('\n', f);
		for (int v = 0; v < s->n_series; v++) {
			dat_label(f, s->series[v]);
			double cum = 0;
			for (int c = 0; c < s->n_classes; c++) {
				double x = s->share[(g * s->n_series + v) * s->n_classes + c];
				cum += isfinite(x) ? x : 0;
				if (isfinite(x))
					fprintf(f, " %.6g", cum);
				else
					fprintf(f, " NaN");
			}
			fprintf(f, "\n");
		}
	}
	fclose(f);
	f = open_in(plots, s->name, "gp", err);
	if (!f)
		return err->code;
	int panels = s->n_groups + 1, cols = panels <= 4 ? panels : panels <= 9 ? 3 : 4;
	int rows = (panels + cols - 1) / cols;
	int pw = 180 + s->n_series * 22;
	pw = pw < 330 ? 330 : pw;
	for (int k = 0; k < 2; k++) {
		rep_gp_terminal(f, k, s->name, pw * cols, 60 + rows * 340);
		fprintf(f, "set datafile missing 'NaN'\nset style fill solid 0.9 border rgb '#303030'\n"
			   "set boxwidth 0.7 relative\nset yrange [0:1]\nset ytics 0,0.2,1\nset grid ytics\n"
			   "set xtics rotate by 90 right nomirror\nunset key\n");
		fprintf(f, "C = '");
		for (int c = 0; c < s->n_classes; c++)
			fprintf(f, "%s%s", c ? " " : "", rep_colour(c + 1));
		fprintf(f, "'\nN = '");
		for (int c = 0; c < s->n_classes; c++)
			fprintf(f, "%s%s", c ? " " : "", s->classes[c]);
		fprintf(f, "'\nset multiplot layout %d,%d title ", rows, cols);
		rep_gp_str(f, s->title);
		fprintf(f, "\n");
		for (int g = 0; g < s->n_groups; g++) {
			fprintf(f, "set title ");
			rep_gp_str(f, s->groups[g]);
			fprintf(f, "\nset ylabel ");
			rep_gp_str(f, g % cols ? "" : s->ylabel);
			fprintf(f, "\nset xrange [-0.6:%d.6]\n", s->n_series - 1);
			fprintf(f, "plot for [c=%d:1:-1] ", s->n_classes);
			gp_dat(f, s->name);
			fprintf(f, " index %d using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)\n", g);
		}
		/* the key, alone in the last panel */
		fprintf(f, "unset title\nunset ylabel\nunset border\nunset tics\nunset grid\nset xrange [0:1]\n"
			   "set yrange [0:1]\nset key center center vertical Left reverse box title 'cycle class'\n"
			   "plot for [c=1:%d] NaN with boxes lc rgb word(C, c) title word(N, c)\n"
			   "unset multiplot\n", s->n_classes);
		fprintf(f, "set border\nset tics\nset grid ytics\n");
	}
	fclose(f);
	return rep_gnuplot(plots, s->name, err);
}

struct cta_rec {
	long kernel, core, seq;
	double start, end;
	int slot;
};

static int cmp_rec(const void *a, const void *b)
{
	const struct cta_rec *x = a, *y = b;
	if (x->core != y->core)
		return x->core < y->core ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

#define REP_MAX_SLOTS 64

int rep_timeline_plot(const char *plots, const char *name, const char *csv, const char *title,
		      int *n_slots, bool *drawn, struct sim_error *err)
{
	*drawn = false;
	*n_slots = 0;
	FILE *in = fopen(csv, "r");
	if (!in)
		return 0;
	struct cta_rec *r = NULL;
	size_t n = 0, cap = 0;
	char line[512];
	long max_core = -1, max_kernel = 0;
	while (fgets(line, sizeof line, in)) {
		struct cta_rec x = {0};
		long cta;
		if (sscanf(line, "%ld,%ld,%ld,%ld,%lf,%lf", &x.kernel, &cta, &x.core, &x.seq, &x.start, &x.end) != 6)
			continue; /* the header */
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			struct cta_rec *nr = realloc(r, cap * sizeof *r);
			if (!nr) {
				free(r);
				fclose(in);
				return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
			}
			r = nr;
		}
		r[n++] = x;
		max_core = x.core > max_core ? x.core : max_core;
		max_kernel = x.kernel > max_kernel ? x.kernel : max_kernel;
	}
	fclose(in);
	if (!n) {
		free(r);
		return 0;
	}
	/* lowest free slot per SM: a slot is free again at the cycle its CTA ended */
	qsort(r, n, sizeof *r, cmp_rec);
	double slot_end[REP_MAX_SLOTS];
	int slots = 0;
	for (size_t i = 0; i < n; i++) {
		if (!i || r[i].core != r[i - 1].core)
			for (int s = 0; s < REP_MAX_SLOTS; s++)
				slot_end[s] = -1;
		int s = 0;
		while (s < REP_MAX_SLOTS - 1 && slot_end[s] > r[i].start)
			s++;
		slot_end[s] = r[i].end;
		r[i].slot = s;
		slots = s + 1 > slots ? s + 1 : slots;
	}
	*n_slots = slots;
	FILE *f = open_in(plots, name, "dat", err);
	if (!f) {
		free(r);
		return err->code;
	}
	dat_comment(f, title);
	fprintf(f, "\n# core slot row start_cycle end_cycle kernel\n");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%ld %d %ld %.0f %.0f %ld\n", r[i].core, r[i].slot, r[i].core * slots + r[i].slot,
			r[i].start, r[i].end, r[i].kernel);
	free(r);
	fclose(f);
	f = open_in(plots, name, "gp", err);
	if (!f)
		return err->code;
	long n_rows = (max_core + 1) * slots;
	int h = 160 + (int)(n_rows * 6);
	h = h < 480 ? 480 : h > 1600 ? 1600 : h;
	long every = max_core < 32 ? 1 : (max_core + 1) / 16;
	for (int k = 0; k < 2; k++) {
		rep_gp_terminal(f, k, name, 1100, h);
		fprintf(f, "set title ");
		rep_gp_str(f, title);
		fprintf(f, "\nset xlabel 'time (core cycles)'\nset ylabel 'SM (one row per CTA slot)'\n"
			   "set yrange [%ld:-1] \nset xrange [0:*]\nunset key\nset grid xtics\nunset arrow\n",
			n_rows);
		fprintf(f, "set ytics (");
		for (long c = 0; c <= max_core; c += every)
			fprintf(f, "%s'SM %ld' %g", c ? ", " : "", c, c * slots + (slots - 1) / 2.0);
		fprintf(f, ") nomirror\n");
		for (long c = 1; c <= max_core && slots > 1; c++)
			fprintf(f, "set arrow from graph 0, first %g to graph 1, first %g nohead lc rgb '#c0c0c0'\n",
				c * slots - 0.5, c * slots - 0.5);
		/* kernels alternate colours so that launch boundaries show */
		for (int c = 0; c < 8; c++)
			fprintf(f, "set linetype %d lc rgb '%s'\n", 101 + c, rep_colour(c + 1));
		fprintf(f, "plot ");
		gp_dat(f, name);
		fprintf(f, " using (($4+$5)/2):3:(($5-$4)/2):(0.42):(101 + int($6) %% %d) "
			   "with boxxyerror fs solid 0.9 noborder lc variable\n", max_kernel > 0 ? 8 : 1);
	}
	fclose(f);
	*drawn = true;
	return rep_gnuplot(plots, name, err);
}
