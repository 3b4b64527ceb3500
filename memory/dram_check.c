/* SPDX-License-Identifier: MIT */
/* DRAM protocol checker: replays the recorded command trace against JEDEC-style timing rules
 * (tRCD tRP tRAS tRC tRRD tFAW tCCD tWTR tRTW tWR tRTP tRFC, CL/WL data-bus overlap). */
#include "dram_check.h"

#include <stdlib.h>
#include <string.h>

static const char *const cmd_name[] = {"ACT", "PRE", "PREA", "RD", "WR", "REF"};

struct dram_check *dram_check_create(const struct dram_check_timing *t, uint32_t channel)
{
	if (t->banks == 0 || t->banks > DRAM_CHECK_BANKS)
		return NULL;
	struct dram_check *k = calloc(1, sizeof *k);
	if (!k)
		return NULL;
	k->t = *t;
	k->channel = channel;
	return k;
}

void dram_check_destroy(struct dram_check *k) { free(k); }

/* Times are stored +1 (0 = never); "at least gap cycles after the event at stored s". */
static bool too_early(uint64_t stored, uint64_t gap, uint64_t cycle)
{
	return stored && cycle < stored - 1 + gap;
}

static void violation(struct dram_check *k, const struct dram_check_rec *r, const char *rule,
		      uint64_t since_stored, uint64_t gap)
{
	if (k->err.code != SIM_OK)
		return;
	sim_error_set(&k->err, SIM_ERR_FAULT, NULL, 0, 0, "sim.check",
		      "DRAM protocol violation on channel %u: %s to bank %u at DRAM cycle %llu breaks "
		      "%s (needs %llu cycles after cycle %llu; command %llu of the trace)",
		      k->channel, cmd_name[r->cmd], (unsigned)r->bank, (unsigned long long)r->cycle, rule,
		      (unsigned long long)gap, (unsigned long long)(since_stored ? since_stored - 1 : 0),
		      (unsigned long long)k->replayed + 1);
}

static void state_error(struct dram_check *k, const struct dram_check_rec *r, const char *what)
{
	if (k->err.code != SIM_OK)
		return;
	sim_error_set(&k->err, SIM_ERR_FAULT, NULL, 0, 0, "sim.check",
		      "DRAM protocol violation on channel %u: %s to bank %u (row %u) at DRAM cycle "
		      "%llu: %s (command %llu of the trace)",
		      k->channel, cmd_name[r->cmd], (unsigned)r->bank, r->row,
		      (unsigned long long)r->cycle, what, (unsigned long long)k->replayed + 1);
}

#define RULE(k, r, stored, gap, name)                                            \
	do {                                                                     \
		if (too_early((stored), (gap), (r)->cycle))                       \
			violation((k), (r), (name), (stored), (gap));             \
	} while (0)

/* Closing one bank (PRE, or its share of PREA): tRAS after ACT, tRTP after RD, tWR after the
 * end of write data. */
static void check_close(struct dram_check *k, const struct dram_check_rec *r, struct dram_check_bank *b)
{
	const struct dram_check_timing *t = &k->t;
	RULE(k, r, b->act, t->tRAS, "tRAS (ACT to PRE)");
	RULE(k, r, b->rd, t->tRTP, "tRTP (RD to PRE)");
	RULE(k, r, b->wr_end, t->tWR, "tWR (end of write data to PRE)");
	b->open = false;
	b->pre = r->cycle + 1;
}

static void replay_one(struct dram_check *k, const struct dram_check_rec *r)
{
	const struct dram_check_timing *t = &k->t;
	uint64_t now = r->cycle;
	if (k->last_cmd && now + 1 == k->last_cmd)
		violation(k, r, "the command bus (one command per cycle)", k->last_cmd, 1);
	else if (k->last_cmd && now + 1 < k->last_cmd)
		violation(k, r, "the command order (trace goes back in time)", k->last_cmd, 0);
	k->last_cmd = now + 1;
	if (r->cmd != DRAM_CHK_PREA && r->cmd != DRAM_CHK_REF && r->bank >= t->banks) {
		state_error(k, r, "no such bank");
		return;
	}
	struct dram_check_bank *b = &k->bank[r->bank < DRAM_CHECK_BANKS ? r->bank : 0];
	switch ((enum dram_check_cmd)r->cmd) {
	case DRAM_CHK_ACT:
		if (b->open)
			state_error(k, r, "bank already has a row open");
		RULE(k, r, b->pre, t->tRP, "tRP (PRE to ACT)");
		RULE(k, r, b->act, t->tRC, "tRC (ACT to ACT, same bank)");
		RULE(k, r, k->last_act, t->tRRD, "tRRD (ACT to ACT, any bank)");
		RULE(k, r, k->last_ref, t->tRFC, "tRFC (REF to ACT)");
		if (t->tFAW)
			RULE(k, r, k->faw[k->faw_head], t->tFAW, "tFAW (five ACTs in one window)");
		b->open = true;
		b->row = r->row;
		b->act = now + 1;
		k->last_act = now + 1;
		k->faw[k->faw_head] = now + 1;
		k->faw_head = (k->faw_head + 1) % 4;
		break;
	case DRAM_CHK_PRE:
		if (!b->open)
			state_error(k, r, "precharge of a closed bank");
		check_close(k, r, b);
		break;
	case DRAM_CHK_PREA:
		for (uint32_t i = 0; i < t->banks; i++)
			if (k->bank[i].open) {
				struct dram_check_rec one = *r;
				one.bank = (uint16_t)i;
				check_close(k, &one, &k->bank[i]);
			}
		break;
	case DRAM_CHK_RD:
	case DRAM_CHK_WR: {
		bool wr = r->cmd == DRAM_CHK_WR;
		if (!b->open)
			state_error(k, r, "column command to a closed bank");
		else if (b->row != r->row)
			state_error(k, r, "column command to a row that is not the open one");
		RULE(k, r, b->act, t->tRCD, "tRCD (ACT to RD/WR)");
		RULE(k, r, k->last_rd, t->tCCD, "tCCD (column to column)");
		RULE(k, r, k->last_wr, t->tCCD, "tCCD (column to column)");
		if (wr)
			RULE(k, r, k->last_rd, t->tRTW, "tRTW (RD to WR)");
		else
			for (uint32_t i = 0; i < t->banks; i++)
				RULE(k, r, k->bank[i].wr_end, t->tWTR, "tWTR (end of write data to RD)");
		uint64_t start = now + (wr ? t->tWL : t->tCL);
		if (k->bus_end && start < k->bus_end - 1)
			violation(k, r, wr ? "the data bus (WL burst overlaps the previous one)"
					   : "the data bus (CL burst overlaps the previous one)",
				  k->bus_end - (wr ? t->tWL : t->tCL), wr ? t->tWL : t->tCL);
		uint32_t burst = !wr && r->burst ? r->burst : !wr && t->rd_burst_cycles ? t->rd_burst_cycles : t->burst_cycles;
		k->bus_end = start + burst + 1;
		if (wr) {
			b->wr_end = start + t->burst_cycles + 1;
			k->last_wr = now + 1;
		} else {
			b->rd = now + 1;
			k->last_rd = now + 1;
		}
		break;
	}
	case DRAM_CHK_REF:
		for (uint32_t i = 0; i < t->banks; i++) {
			struct dram_check_bank *bi = &k->bank[i];
			struct dram_check_rec one = *r;
			one.bank = (uint16_t)i;
			if (bi->open)
				state_error(k, &one, "refresh while a row is open");
			RULE(k, &one, bi->pre, t->tRP, "tRP (PRE to REF)");
			RULE(k, &one, bi->act, t->tRC, "tRC (ACT to REF)");
		}
		k->last_ref = now + 1;
		break;
	}
	k->replayed++;
}

int dram_check_flush(struct dram_check *k, struct sim_error *err)
{
	for (uint32_t i = 0; i < k->n && k->err.code == SIM_OK; i++)
		replay_one(k, &k->trace[i]);
	k->n = 0;
	if (k->err.code != SIM_OK) {
		if (err)
			*err = k->err;
		return k->err.code;
	}
	return 0;
}

void dram_check_record(struct dram_check *k, enum dram_check_cmd cmd, uint32_t bank,
		       uint32_t row, uint64_t cycle)
{
	if (k->n == DRAM_CHECK_TRACE)
		dram_check_flush(k, NULL); /* a violation sticks in k->err until the next flush */
	struct dram_check_rec *r = &k->trace[k->n++];
	r->cycle = cycle;
	r->row = row;
	r->bank = (uint16_t)bank;
	r->cmd = (uint8_t)cmd;
	r->burst = 0;
}

void dram_check_record_burst(struct dram_check *k, uint32_t bank, uint32_t row, uint64_t cycle,
			     uint32_t burst_cycles)
{
	SIM_ASSERT(burst_cycles >= 1 && burst_cycles <= UINT8_MAX);
	dram_check_record(k, DRAM_CHK_RD, bank, row, cycle);
	k->trace[k->n - 1].burst = (uint8_t)burst_cycles;
}
