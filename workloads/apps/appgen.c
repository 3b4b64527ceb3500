/* warpsim-appgen: the collection's own generators of the input data sets the public suites do
 * not ship (Rodinia's and Parboil's data sets are not in their repositories), each written in the
 * format its program reads. Seeded splitmix64, so the same arguments give the same bytes. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl_int.h" /* wl_rng_next: the workloads' splitmix64 */

struct gen_rng {
	uint64_t s;
};

static uint64_t gen_u64(struct gen_rng *r)
{
	return wl_rng_next(&r->s);
}

/* uniform in [0, n) (n > 0; the modulo bias is irrelevant for test data) */
static uint64_t gen_below(struct gen_rng *r, uint64_t n)
{
	return gen_u64(r) % n;
}

/* uniform in [0, 1) with 53 bits */
static double gen_unit(struct gen_rng *r)
{
	return (double)(gen_u64(r) >> 11) / 9007199254740992.0;
}

/* One generator: name, argument names (after the output path), what it writes. */
struct gen_kind {
	const char *name;
	int nargs;
	const char *usage;
	int (*run)(FILE *f, const long *a, struct gen_rng *r);
	long min[4], max[4]; /* each argument's range (a max of 0: no limit) */
};

/* Rodinia bfs / ISPASS-2009 BFS graph: node count, (first edge, degree) per node, source 0,
 * edge count, (destination, cost) per edge. Degrees uniform in [1, 2*deg-1]. */
static int gen_bfs_graph(FILE *f, const long *a, struct gen_rng *r)
{
	long n = a[0], deg = a[1];
	long *d = malloc((size_t)n * sizeof *d);
	if (!d)
		return -1;
	long e = 0;
	fprintf(f, "%ld\n", n);
	for (long i = 0; i < n; i++) {
		d[i] = 1 + (long)gen_below(r, (uint64_t)(2 * deg - 1));
		fprintf(f, "%ld %ld\n", e, d[i]);
		e += d[i];
	}
	fprintf(f, "\n0\n\n%ld\n", e);
	for (long i = 0; i < n; i++)
		for (long k = 0; k < d[i]; k++)
			fprintf(f, "%ld %ld\n", (long)gen_below(r, (uint64_t)n), 1 + (long)gen_below(r, 10));
	free(d);
	return 0;
}

/* Rodinia kmeans text input: "id f1 ... fF" per point, features in [0, 1). Points are drawn
 * around 5 centres so the clustering has structure. */
static int gen_kmeans_points(FILE *f, const long *a, struct gen_rng *r)
{
	long n = a[0], nf = a[1];
	double c[5][64]; /* FEATURES <= 64, checked in main */
	for (int k = 0; k < 5; k++)
		for (long j = 0; j < nf; j++)
			c[k][j] = gen_unit(r);
	for (long i = 0; i < n; i++) {
		int k = (int)gen_below(r, 5);
		fprintf(f, "%ld", i + 1);
		for (long j = 0; j < nf; j++) {
			double v = c[k][j] + 0.1 * (gen_unit(r) - 0.5);
			fprintf(f, " %.4f", v < 0 ? 0 : v > 1 ? 1 : v);
		}
		fputc('\n', f);
	}
	return 0;
}

/* Rodinia cfd domain (fvcorr.domn format): element count; per element its volume and 4 faces of
 * (neighbour, 1-based, or -1 wall / -2 far field; normal x y z). Elements lie on a 3D grid of
 * width w (x) and height w (y) so neighbours are near in memory, as in a meshed domain. */
static int gen_cfd_domain(FILE *f, const long *a, struct gen_rng *r)
{
	long n = a[0], w = 16;
	fprintf(f, "%ld\n", n);
	for (long i = 0; i < n; i++) {
		fprintf(f, "%.6f", 0.5 + 0.5 * gen_unit(r));
		long nb[4] = {i % w ? i - 1 : -1, i % w != w - 1 ? i + 1 : -1, i >= w * w ? i - w * w : -2,
			      i + w * w < n ? i + w * w : -2};
		static const double nrm[4][3] = {{-1, 0, 0}, {1, 0, 0}, {0, 0, -1}, {0, 0, 1}};
		for (int j = 0; j < 4; j++) {
			long v = nb[j] >= n ? -1 : nb[j];
			fprintf(f, " %ld", v >= 0 ? v + 1 : v);
			for (int k = 0; k < 3; k++)
				fprintf(f, " %.6f", nrm[j][k] * (0.9 + 0.2 * gen_unit(r)));
		}
		fputc('\n', f);
	}
	return 0;
}

/* One float per line, rows x cols, uniform in [lo, hi) millionths (hotspot's temp_N, power_N). */
static int gen_grid_floats(FILE *f, const long *a, struct gen_rng *r)
{
	for (long i = 0; i < a[0] * a[1]; i++)
		fprintf(f, "%.9g\n", ((double)a[2] + (double)(a[3] - a[2]) * gen_unit(r)) / 1e6);
	return 0;
}

/* Plain (P2) PGM image, w x h, 8-bit values (srad_v1's image.pgm). */
static int gen_pgm(FILE *f, const long *a, struct gen_rng *r)
{
	fprintf(f, "P2\n%ld %ld\n255\n", a[0], a[1]);
	for (long y = 0; y < a[1]; y++) {
		for (long x = 0; x < a[0]; x++)
			fprintf(f, "%d ", 64 + (int)(127 * (x + y) / (a[0] + a[1])) + (int)gen_below(r, 64));
		fputc('\n', f);
	}
	return 0;
}

/* n little-endian float32 values in [0, 1) (Parboil spmv's vector). */
static int gen_floats_bin(FILE *f, const long *a, struct gen_rng *r)
{
	for (long i = 0; i < a[0]; i++) {
		float v = (float)gen_unit(r);
		if (fwrite(&v, sizeof v, 1, f) != 1)
			return -1;
	}
	return 0;
}

/* Parboil sgemm's column-major matrix: "rows cols" then rows*cols values in [-1, 1). */
static int gen_colmajor(FILE *f, const long *a, struct gen_rng *r)
{
	fprintf(f, "%ld %ld\n", a[0], a[1]);
	for (long i = 0; i < a[0] * a[1]; i++)
		fprintf(f, "%.6f\n", 2 * gen_unit(r) - 1);
	return 0;
}

/* Parboil cutcp's PQR atoms: n ATOM records in a cube of side box Angstroms, charges +-1. */
static int gen_pqr(FILE *f, const long *a, struct gen_rng *r)
{
	for (long i = 0; i < a[0]; i++)
		fprintf(f, "ATOM  %5ld  OH2 TIP3 %5ld %8.3f %8.3f %8.3f %8.4f %6.4f\n", i + 1, i / 3 + 1,
			(double)a[1] * gen_unit(r), (double)a[1] * gen_unit(r), (double)a[1] * gen_unit(r),
			i % 3 ? 0.417 : -0.834, 1.0);
	return 0;
}

/* Parboil tpacf's points: "ra dec" in degrees per line, uniform on the sphere. */
static int gen_radec(FILE *f, const long *a, struct gen_rng *r)
{
	for (long i = 0; i < a[0]; i++) {
		double ra = 360.0 * gen_unit(r), dec = asin(2 * gen_unit(r) - 1) * 180.0 / M_PI;
		fprintf(f, "%.6f %.6f\n", ra, dec);
	}
	return 0;
}

/* Parboil sad's image: u16 width, u16 height (little-endian), then w*h 16-bit pixels; a smooth
 * gradient plus noise, so the motion search has structure. */
static int gen_sad_image(FILE *f, const long *a, struct gen_rng *r)
{
	uint16_t wh[2] = {(uint16_t)a[0], (uint16_t)a[1]};
	if (fwrite(wh, sizeof wh, 1, f) != 1)
		return -1;
	for (long y = 0; y < a[1]; y++)
		for (long x = 0; x < a[0]; x++) {
			int16_t v = (int16_t)((x * 3 + y * 5 + a[2]) % 200 + (long)gen_below(r, 16));
			if (fwrite(&v, sizeof v, 1, f) != 1)
				return -1;
		}
	return 0;
}

/* IDX3 image set (MNIST's t10k-images-idx3-ubyte layout, big-endian header): n images of
 * 28 x 28 bytes, a random blob each (ISPASS-2009 NN). */
static int gen_idx3(FILE *f, const long *a, struct gen_rng *r)
{
	uint32_t hdr[4] = {2051, (uint32_t)a[0], 28, 28};
	for (int i = 0; i < 4; i++) {
		unsigned char b[4] = {hdr[i] >> 24, hdr[i] >> 16 & 255, hdr[i] >> 8 & 255, hdr[i] & 255};
		if (fwrite(b, 4, 1, f) != 1)
			return -1;
	}
	for (long i = 0; i < a[0]; i++) {
		int cx = 8 + (int)gen_below(r, 12), cy = 8 + (int)gen_below(r, 12);
		for (int y = 0; y < 28; y++)
			for (int x = 0; x < 28; x++) {
				int d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
				fputc(d2 < 30 ? 128 + (int)gen_below(r, 128) : 0, f);
			}
	}
	return 0;
}

/* Mars web log, as its GenWebLog writes: "count": "URL\tIP\tTIME", "rank": "URL\tRANK"; URLs
 * http://www.abcdefg.com/<0..1023>.html. */
static int gen_weblog(FILE *f, const long *a, struct gen_rng *r, int rank)
{
	for (long i = 0; i < a[0]; i++) {
		unsigned page = (unsigned)gen_below(r, 1024);
		if (rank)
			fprintf(f, "http://www.abcdefg.com/%u.html\t%u\n", page, (unsigned)(gen_u64(r) >> 33));
		else
			fprintf(f, "http://www.abcdefg.com/%u.html\t%u.%u.%u.%u\t%u\n", page,
				(unsigned)gen_below(r, 256), (unsigned)gen_below(r, 256), (unsigned)gen_below(r, 256),
				(unsigned)gen_below(r, 256), (unsigned)gen_below(r, 1000));
	}
	return 0;
}
static int gen_weblog_count(FILE *f, const long *a, struct gen_rng *r)
{
	return gen_weblog(f, a, r, 0);
}
static int gen_weblog_rank(FILE *f, const long *a, struct gen_rng *r)
{
	return gen_weblog(f, a, r, 1);
}

/* Matrix Market "coordinate real general" matrix, rows x rows, per row k distinct columns in a
 * band of 4k around the diagonal, in column order, values in [-1, 1) (Parboil spmv). */
static int gen_mtx(FILE *f, const long *a, struct gen_rng *r)
{
	long n = a[0], k = a[1] < a[0] ? a[1] : a[0];
	fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n%ld %ld %ld\n", n, n, n * k);
	for (long i = 0; i < n; i++) {
		/* k distinct columns from the band [lo, lo + width): pick k of width in order */
		long width = 4 * k < n ? 4 * k : n, lo = i - width / 2;
		lo = lo < 0 ? 0 : lo + width > n ? n - width : lo;
		long need = k;
		for (long c = 0; c < width && need > 0; c++)
			if ((long)gen_below(r, (uint64_t)(width - c)) < need) {
				fprintf(f, "%ld %ld %.6f\n", i + 1, lo + c + 1, 2 * gen_unit(r) - 1);
				need--;
			}
	}
	return 0;
}

/* Rodinia b+tree's key file: the count, then that many keys in [0, MAX), one a line. */
static int gen_int_lines(FILE *f, const long *a, struct gen_rng *r)
{
	fprintf(f, "%ld\n", a[0]);
	for (long i = 0; i < a[0]; i++)
		fprintf(f, "%ld\n", (long)gen_below(r, (uint64_t)a[1]));
	return 0;
}

static int put_u32(FILE *f, uint32_t v)
{
	unsigned char b[4] = {v & 255, v >> 8 & 255, v >> 16 & 255, v >> 24};
	return fwrite(b, 4, 1, f) == 1 ? 0 : -1;
}

/* Uncompressed 8-bit grey AVI (RIFF, hdrl with a vids strh and a BITMAPINFOHEADER strf, movi
 * of 00db frames, no idx1: Rodinia's avilib indexes it by scanning): frames of a bright ring of
 * varying radius on noise, for heartwall's tracking. */
static int gen_avi(FILE *f, const long *a, struct gen_rng *r)
{
	uint32_t w = (uint32_t)a[0], h = (uint32_t)a[1], n = (uint32_t)a[2];
	uint32_t frame = w * h + (w * h & 1), movi = 4 + n * (8 + frame), hdrl = 4 + 8 + 56 + 8 + 40;
	int e = fwrite("RIFF", 4, 1, f) != 1;
	e |= put_u32(f, 4 + 8 + hdrl + 8 + movi) | (fwrite("AVI LIST", 8, 1, f) != 1) | put_u32(f, hdrl);
	e |= (fwrite("hdrlstrh", 8, 1, f) != 1) | put_u32(f, 56) | (fwrite("vidsDIB ", 8, 1, f) != 1);
	uint32_t strh[12] = {0, 0, 0, 1, 25, 0, n, frame, 0, 0, 0, 0}; /* flags..., scale 1, rate 25, length */
	for (int i = 0; i < 12; i++)
		e |= put_u32(f, strh[i]);
	e |= (fwrite("strf", 4, 1, f) != 1) | put_u32(f, 40);
	uint32_t bih[10] = {40, w, h, 1 | 8u << 16, 0, w * h, 0, 0, 256, 0};
	for (int i = 0; i < 10; i++)
		e |= put_u32(f, bih[i]);
	e |= (fwrite("LIST", 4, 1, f) != 1) | put_u32(f, movi) | (fwrite("movi", 4, 1, f) != 1);
	for (uint32_t k = 0; k < n && !e; k++) {
		e |= (fwrite("00db", 4, 1, f) != 1) | put_u32(f, w * h);
		double cx = w / 2.0, cy = h / 2.0, rad = (w < h ? w : h) * (0.25 + 0.03 * (k % 8));
		for (uint32_t y = 0; y < h; y++)
			for (uint32_t x = 0; x < w; x++) {
				double d = sqrt((x - cx) * (x - cx) + (y - cy) * (y - cy)) - rad;
				fputc((d > -6 && d < 6 ? 180 : 40) + (int)gen_below(r, 40), f);
			}
		if (w * h & 1)
			fputc(0, f);
	}
	return e ? -1 : 0;
}

static const struct gen_kind gen_kinds[] = {
	{"bfs-graph", 2, "NODES DEGREE", gen_bfs_graph, {1, 1}, {1L << 30, 1L << 20}},
	{"kmeans-points", 2, "POINTS FEATURES", gen_kmeans_points, {1, 1}, {0, 64}},
	{"cfd-domain", 1, "ELEMENTS", gen_cfd_domain, {1}, {1L << 30}},
	{"grid-floats", 4, "ROWS COLS LO_MICRO HI_MICRO", gen_grid_floats, {1, 1, 0, 0}, {1L << 20, 1L << 20, 0, 0}},
	{"pgm", 2, "WIDTH HEIGHT", gen_pgm, {1, 1}, {1L << 16, 1L << 16}},
	{"floats-bin", 1, "COUNT", gen_floats_bin, {1}, {0}},
	{"colmajor-matrix", 2, "ROWS COLS", gen_colmajor, {1, 1}, {1L << 16, 1L << 16}},
	{"pqr-atoms", 2, "ATOMS BOX", gen_pqr, {1, 1}, {0, 10000}},
	{"radec-points", 1, "POINTS", gen_radec, {1}, {0}},
	{"sad-image", 3, "WIDTH HEIGHT PHASE", gen_sad_image, {1, 1, 0}, {65535, 65535, 0}},
	{"idx3-images", 1, "IMAGES", gen_idx3, {1}, {1L << 30}},
	{"weblog-count", 1, "RECORDS", gen_weblog_count, {1}, {0}},
	{"weblog-rank", 1, "RECORDS", gen_weblog_rank, {1}, {0}},
	{"avi-gray", 3, "WIDTH HEIGHT FRAMES", gen_avi, {1, 1, 1}, {4096, 4096, 10000}},
	{"int-lines", 2, "COUNT MAX", gen_int_lines, {1, 1}, {0, 1L << 31}},
	{"mtx-matrix", 2, "ROWS PER_ROW", gen_mtx, {1, 1}, {1L << 26, 1024}},
};

static void usage(FILE *f)
{
	fprintf(f, "usage: warpsim-appgen KIND OUTPUT SEED ARGS...\n");
	for (size_t i = 0; i < sizeof gen_kinds / sizeof gen_kinds[0]; i++)
		fprintf(f, "  %-16s OUTPUT SEED %s\n", gen_kinds[i].name, gen_kinds[i].usage);
}

int main(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc < 4) {
		usage(stderr);
		return 2;
	}
	const struct gen_kind *k = NULL;
	for (size_t i = 0; i < sizeof gen_kinds / sizeof gen_kinds[0]; i++)
		if (!strcmp(argv[1], gen_kinds[i].name))
			k = &gen_kinds[i];
	if (!k) {
		fprintf(stderr, "warpsim-appgen: unknown kind '%s'\n", argv[1]);
		usage(stderr);
		return 2;
	}
	if (argc != 4 + k->nargs) {
		fprintf(stderr, "warpsim-appgen: %s takes OUTPUT SEED %s\n", k->name, k->usage);
		return 2;
	}
	long a[8];
	char *end;
	errno = 0;
	uint64_t seed = strtoull(argv[3], &end, 10);
	if (errno || *end || !*argv[3] || argv[3][0] == '-') {
		fprintf(stderr, "warpsim-appgen: %s: SEED '%s' is not an unsigned integer\n", k->name, argv[3]);
		return 2;
	}
	for (int i = 0; i < k->nargs; i++) {
		errno = 0;
		a[i] = strtol(argv[4 + i], &end, 10);
		if (errno || *end || !*argv[4 + i] || a[i] < 0) {
			fprintf(stderr, "warpsim-appgen: %s: argument %d '%s' is not a non-negative integer (%s)\n",
				k->name, i + 1, argv[4 + i], k->usage);
			return 2;
		}
		if (a[i] < k->min[i] || (k->max[i] && a[i] > k->max[i])) {
			fprintf(stderr, "warpsim-appgen: %s: argument %d is %ld, outside [%ld, %ld] (%s)\n", k->name,
				i + 1, a[i], k->min[i], k->max[i] ? k->max[i] : LONG_MAX, k->usage);
			return 2;
		}
	}
	if (!strcmp(k->name, "grid-floats") && a[3] < a[2]) {
		fprintf(stderr, "warpsim-appgen: grid-floats: HI_MICRO %ld is below LO_MICRO %ld\n", a[3], a[2]);
		return 2;
	}
	FILE *f = fopen(argv[2], "wb");
	if (!f) {
		fprintf(stderr, "warpsim-appgen: %s: %s\n", argv[2], strerror(errno));
		return 2;
	}
	struct gen_rng r = {seed};
	int rc = k->run(f, a, &r);
	if (fclose(f) != 0 || rc != 0) {
		fprintf(stderr, "warpsim-appgen: %s: writing %s failed\n", k->name, argv[2]);
		return 1;
	}
	return 0;
}
