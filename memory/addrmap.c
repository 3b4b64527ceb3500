/* SPDX-License-Identifier: MIT */
/* Address map: channel interleaving by chunks, then a per-bit letter map inside the channel. */
#include "addrmap.h"

#include <string.h>

static bool is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

static uint32_t log2u(uint64_t v)
{
	uint32_t n = 0;
	while (v > 1) {
		v >>= 1;
		n++;
	}
	return n;
}

int mem_addrmap_setup(struct mem_addrmap *m, uint32_t n_channels, uint32_t chan_interleave_bytes,
		      uint32_t banks, uint32_t row_bytes, const char *local_map, bool xor_bank,
		      struct sim_error *err)
{
	memset(m, 0, sizeof *m);
	if (n_channels == 0)
		return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, "gpu.dram.channels",
				     "must be at least 1");
	if (!is_pow2(chan_interleave_bytes))
		return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0,
				     "gpu.dram.addrmap.chan_interleave_bytes",
				     "must be a power of two, got %u", chan_interleave_bytes);
	if (!is_pow2(banks))
		return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, "gpu.dram.banks",
				     "must be a power of two, got %u", banks);
	if (!is_pow2(row_bytes))
		return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, "gpu.dram.row_bytes",
				     "must be a power of two, got %u", row_bytes);
	char autobuf[MEM_ADDRMAP_MAX_BITS + 1];
	if (!strcmp(local_map, "auto") && is_pow2(banks) && is_pow2(row_bytes) &&
	    log2u(banks) + log2u(row_bytes) <= MEM_ADDRMAP_MAX_BITS) {
		/* bank bits right above the column bits: "BB" + 11 C for 4 banks of 2 KB rows */
		uint32_t nb = log2u(banks), nc = log2u(row_bytes);
		memset(autobuf, 'B', nb);
		memset(autobuf + nb, 'C', nc);
		autobuf[nb + nc] = '\0';
		local_map = autobuf;
	}
	size_t len = strlen(local_map);
	if (len > MEM_ADDRMAP_MAX_BITS)
		return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, "gpu.dram.addrmap.local_map",
				     "at most %d letters, got %zu", MEM_ADDRMAP_MAX_BITS, len);
	uint32_t nc = 0, nb = 0;
	for (size_t i = 0; i < len; i++) {
		char ch = local_map[len - 1 - i]; /* string is MSB first */
		if (ch != 'C' && ch != 'B' && ch != 'R')
			return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0,
					     "gpu.dram.addrmap.local_map",
					     "letters must be C, B or R, got '%c'", ch);
		nc += ch == 'C';
		nb += ch == 'B';
		m->map[i] = (uint8_t)ch;
	}
	if (nc != log2u(row_bytes) || nb != log2u(banks))
		return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, "gpu.dram.addrmap.local_map",
				     "\"%s\" has %u C and %u B bits; %u-byte rows and %u banks need %u and %u",
				     local_map, nc, nb, row_bytes, banks, log2u(row_bytes),
				     log2u(banks));
	m->n_channels = n_channels;
	m->chan_interleave_bytes = chan_interleave_bytes;
	m->banks = banks;
	m->row_bytes = row_bytes;
	m->xor_bank = xor_bank;
	m->n_map_bits = (uint32_t)len;
	uint32_t next[3] = {0, 0, 0};
	for (uint32_t i = 0; i < len; i++) {
		uint8_t f = m->map[i] == 'C' ? 0 : m->map[i] == 'B' ? 1 : 2;
		if (!i || m->map[i] != m->map[i - 1])
			m->runs[m->n_runs++] = (struct mem_addrmap_run){f, (uint8_t)next[f], (uint8_t)i, 0};
		m->runs[m->n_runs - 1].width++;
		next[f]++;
	}
	m->row_bits_in_map = next[2];
	m->sub_partitions = 1;
	return 0;
}

int mem_addrmap_set_sub_partitions(struct mem_addrmap *m, uint32_t n, struct sim_error *err)
{
	if (!is_pow2(n) || n > m->banks)
		return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, "gpu.l2.sub_partitions",
				     "must be a power of two of at most gpu.dram.banks (%u), got %u", m->banks, n);
	m->sub_partitions = n;
	m->n_sub_bits = 0;
	for (uint32_t i = 0; i < m->n_map_bits && m->n_sub_bits < log2u(n); i++)
		if (m->map[i] == 'B')
			m->sub_bit[m->n_sub_bits++] = (uint8_t)i;
	return 0;
}

int mem_addrmap_init(struct mem_addrmap *m, const struct cfg *cfg, struct sim_error *err)
{
	int rc = mem_addrmap_setup(m, (uint32_t)cfg_int(cfg, "gpu.dram.channels"),
				   (uint32_t)cfg_int(cfg, "gpu.dram.addrmap.chan_interleave_bytes"),
				   (uint32_t)cfg_int(cfg, "gpu.dram.banks"),
				   (uint32_t)cfg_int(cfg, "gpu.dram.row_bytes"),
				   cfg_str(cfg, "gpu.dram.addrmap.local_map"),
				   cfg_bool(cfg, "gpu.dram.addrmap.xor_bank"), err);
	if (!rc)
		rc = mem_addrmap_set_sub_partitions(m, (uint32_t)cfg_int(cfg, "gpu.l2.sub_partitions"), err);
	if (rc && err && err->setting[0]) {
		/* Re-issue at the setting's source line. */
		char msg[sizeof err->msg], setting[sizeof err->setting];
		memcpy(msg, err->msg, sizeof msg);
		memcpy(setting, err->setting, sizeof setting);
		return cfg_error(err, cfg, setting, "%s", msg);
	}
	return rc;
}

uint32_t mem_addr_channel(const struct mem_addrmap *m, uint64_t addr)
{
	return (uint32_t)((addr / m->chan_interleave_bytes) % m->n_channels);
}

uint64_t mem_addr_local(const struct mem_addrmap *m, uint64_t addr)
{
	uint64_t il = m->chan_interleave_bytes; /* a power of two */
	return (addr / il / m->n_channels) * il + (addr & (il - 1));
}

uint64_t mem_addr_global(const struct mem_addrmap *m, uint32_t channel, uint64_t local)
{
	uint64_t il = m->chan_interleave_bytes;
	return ((local / il) * m->n_channels + channel) * il + (local & (il - 1));
}

uint32_t mem_addr_slice(const struct mem_addrmap *m, uint64_t addr)
{
	uint32_t sub = 0;
	if (m->n_sub_bits) {
		uint64_t local = mem_addr_local(m, addr);
		for (uint32_t i = 0; i < m->n_sub_bits; i++)
			sub |= (uint32_t)(local >> m->sub_bit[i] & 1) << i;
	}
	return mem_addr_channel(m, addr) * m->sub_partitions + sub;
}

uint64_t mem_addr_slice_local(const struct mem_addrmap *m, uint64_t addr)
{
	uint64_t x = mem_addr_local(m, addr);
	for (uint32_t i = m->n_sub_bits; i-- > 0;) { /* highest first: lower positions stay put */
		uint32_t p = m->sub_bit[i];
		x = (x >> (p + 1) << p) | (x & ((1ull << p) - 1));
	}
	return x;
}

uint64_t mem_addr_slice_global(const struct mem_addrmap *m, uint32_t slice, uint64_t slice_local)
{
	uint64_t x = slice_local;
	uint32_t sub = slice % m->sub_partitions;
	for (uint32_t i = 0; i < m->n_sub_bits; i++) { /* lowest first, as they were removed */
		uint32_t p = m->sub_bit[i];
		x = (x >> p << (p + 1)) | ((uint64_t)(sub >> i & 1) << p) | (x & ((1ull << p) - 1));
	}
	return mem_addr_global(m, slice / m->sub_partitions, x);
}

static inline uint64_t low_bits(uint32_t width)
{
	return width >= 64 ? UINT64_MAX : (1ull << width) - 1;
}

void mem_addr_decode(const struct mem_addrmap *m, uint64_t addr, struct mem_dram_addr *out)
{
	uint64_t local = mem_addr_local(m, addr);
	uint64_t field[3] = {0, 0, 0};
	for (uint32_t i = 0; i < m->n_runs; i++) {
		const struct mem_addrmap_run *r = &m->runs[i];
		field[r->field] |= ((local >> r->dst_lo) & low_bits(r->width)) << r->src_lo;
	}
	uint64_t row = field[2] | (local >> m->n_map_bits) << m->row_bits_in_map, bank = field[1];
	if (m->xor_bank)
		bank ^= row & (m->banks - 1);
	out->channel = mem_addr_channel(m, addr);
	out->bank = (uint32_t)bank;
	out->row = (uint32_t)row;
	out->col = (uint32_t)field[0];
}

uint64_t mem_addr_encode(const struct mem_addrmap *m, const struct mem_dram_addr *a)
{
	uint64_t field[3] = {a->col, a->bank, a->row};
	if (m->xor_bank)
		field[1] ^= field[2] & (m->banks - 1);
	uint64_t local = 0;
	for (uint32_t i = 0; i < m->n_runs; i++) {
		const struct mem_addrmap_run *r = &m->runs[i];
		local |= ((field[r->field] >> r->src_lo) & low_bits(r->width)) << r->dst_lo;
	}
	local |= (field[2] >> m->row_bits_in_map) << m->n_map_bits;
	return mem_addr_global(m, a->channel, local);
}

