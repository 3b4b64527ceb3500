/* SPDX-License-Identifier: MIT */
/* Group schedulers: Narasiman two-level round-robin over fixed fetch groups (002 Sec 3.2) and
 * OWL's CTA groups with CTA-Aware, -Locality and -Locality-BLP priorities (004 Sec 4, Alg. 1). */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "sched_internal.h"

/* Which group each resident CTA belongs to, kept from event to event. A group keeps its
 * identity and its priority until every CTA in it has finished; then the next group takes its
 * place (004 Sec 4.2: "If all warps belonging to group 1 have completed their execution, the
 * next group (group 2) is chosen and is always prioritized"). Groups are formed by Algorithm 1
 * from the CTAs resident at the first ranking of a kernel; a CTA launched later joins the
 * lowest-priority group while it has fewer than n CTAs, else starts a new lowest-priority group.
 * So a CTA event never moves another CTA between groups, and BLP's rotation (g_pri =
 * (g_num - core_ID) mod g_core, applied once at formation) keeps pointing at the same CTAs. */
#define OWL_NO_GROUP 0xff

struct owl_membership {
	bool formed;                                 /* false: form at the next ranking */
	uint32_t n_per_group;                        /* n of FORM GROUPS */
	uint8_t group_of_slot[SCHED_MAX_CTAS];       /* CTA slot -> group id, OWL_NO_GROUP */
	uint8_t n_ctas[SCHED_OWL_MAX_GROUPS];        /* CTAs in group id; 0: the id is free */
	uint8_t ring[SCHED_OWL_MAX_GROUPS];          /* group ids by priority, highest first */
	uint32_t n_ring;
	uint8_t cur_id[SCHED_MAX_SCHEDULERS];        /* owl-cta: each scheduler's current group */
};

/* The groups as the ranking reads them, rebuilt from the membership and the warp views after
 * a CTA launch / finish, warp exit or kernel start: group g is the g-th of the ring, so for the
 * fixed-priority kinds group number and priority position coincide. */
struct owl_groups {
	uint32_t g_core;
	uint8_t group_of_slot[SCHED_MAX_CTAS];            /* CTA slot -> ring position */
	uint64_t warps_of[SCHED_OWL_MAX_GROUPS];          /* bit per valid warp slot in the group */
	uint64_t sched_warps[SCHED_MAX_SCHEDULERS];       /* bit per valid warp slot of a scheduler */
	uint32_t order[SCHED_OWL_MAX_GROUPS];             /* fixed kinds: group -> priority position */
	uint8_t group_at[SCHED_OWL_MAX_GROUPS];           /* fixed kinds: priority position -> group */
};

struct group_state {
	struct sched_last last;
	bool og_valid;                              /* og matches the resident warps */
	struct owl_membership om;
	struct owl_groups og;
	uint32_t cur_group[SCHED_MAX_SCHEDULERS];   /* tl: current fetch group */
};

static int group_init(struct sched *s, const struct cfg *cfg, struct sim_error *err)
{
	(void)cfg;
	struct group_state *st = calloc(1, sizeof *st);
	if (!st)
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	sched_last_reset(&st->last);
	s->state = st;
	return 0;
}

static void group_fini(struct sched *s)
{
	free(s->state);
	s->state = NULL;
}

static void owl_join(struct owl_membership *m, uint32_t slot);
static void owl_leave(struct owl_membership *m, uint32_t slot);

static void group_event(struct sched *s, const struct sched_event *ev)
{
	struct group_state *st = s->state;
	switch (ev->kind) {
	case SCHED_EV_WARP_ISSUE:
		sched_last_note(&st->last, s->core, ev->warp_id);
		return;
	case SCHED_EV_KERNEL_START:
		st->om.formed = false;
		break;
	case SCHED_EV_CTA_LAUNCH:
		if (st->om.formed && ev->cta_slot < SCHED_MAX_CTAS)
			owl_join(&st->om, ev->cta_slot);
		break;
	case SCHED_EV_CTA_FINISH:
		if (st->om.formed && ev->cta_slot < SCHED_MAX_CTAS)
			owl_leave(&st->om, ev->cta_slot);
		break;
	case SCHED_EV_WARP_EXIT:
		break;
	default:
		return;
	}
	st->og_valid = false;
}

/* First group at or after `from` (cyclically over n_groups) whose bit is set in mask;
 * `from` itself when mask is empty. */
static uint32_t next_live_group(uint64_t mask, uint32_t from, uint32_t n_groups)
{
	for (uint32_t d = 0; d < n_groups; d++) {
		uint32_t g = (from + d) % n_groups;
		if (mask & (1ull << g))
			return g;
	}
	return from;
}

/* How many leading entries of a ranking may issue when the chosen group holds the warps of
 * `head` (the first places; live: it has a warp not blocked). With strict_free_units, a chosen
 * group none of whose warps is ready while one waits only for a busy unit does not keep the
 * other groups from the free units: OWL and Narasiman assume one pipeline that a busy unit stops
 * for every group alike, which separate SP/SFU/LD-ST units here are not. */
static uint32_t group_limit(const struct sched_params *p, const struct sched_core_view *core, uint64_t head,
			    bool live)
{
	if (!p->strict_groups || !live)
		return 0;
	if (p->strict_free_units) {
		bool any_ready = false, any_busy = false;
		for (uint64_t m = head; m; m &= m - 1) {
			const struct sched_warp_view *v = &core->warps[__builtin_ctzll(m)];
			any_ready |= v->ready;
			any_busy |= v->unit_busy;
		}
		if (!any_ready && any_busy)
			return 0;
	}
	return (uint32_t)__builtin_popcountll(head);
}

/* ---- tl: Narasiman two-level round-robin ----
 * Fetch groups are fixed by slot: the scheduler's j-th slot (warp_id / n_schedulers) is in
 * group j / group_size. Inside the current group round-robin; the group changes only when
 * every warp of it is stalled (Sec 3.2), to the next group in round-robin order that has a
 * warp that is not. */
static bool tl_stalled(const struct sched_params *p, const struct sched_warp_view *w)
{
	if (p->tl_switch == SCHED_TL_SWITCH_ANY_STALL)
		return !w->valid || !w->ready;
	return sched_warp_blocked(w);
}

static void tl_rank(struct sched *s, uint32_t si, uint64_t now, uint16_t *ids, uint32_t n)
{
	(void)now;
	struct group_state *st = s->state;
	const struct sched_params *p = sched_params_of(s);
	const struct sched_core_view *core = s->core;
	uint32_t nsched = core->n_schedulers ? core->n_schedulers : 1;
	uint32_t gsize = p->group_size_warps ? p->group_size_warps : 1;
	uint32_t slots = (core->max_warps + nsched - 1) / nsched;
	uint32_t n_groups = (slots + gsize - 1) / gsize;
	if (n_groups == 0 || n == 0) {
		s->rank_issuable = 0;
		return;
	}
	si %= SCHED_MAX_SCHEDULERS;
	uint64_t live = 0;   /* groups with a warp that is not stalled (n_groups <= 64) */
	for (uint32_t i = 0; i < n; i++) {
		uint32_t g = (ids[i] / nsched) / gsize;
		if (!tl_stalled(p, &core->warps[ids[i]]))
			live |= 1ull << g;
	}
	uint32_t cur = st->cur_group[si] % n_groups;
	if (!(live & (1ull << cur)))
		cur = next_live_group(live, (cur + 1) % n_groups, n_groups);
	st->cur_group[si] = cur;
	uint64_t *key = sched_key_scratch(s);
	uint32_t start = sched_last_lrr_start(&st->last, si);
	uint64_t in_cur = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t g = (ids[i] / nsched) / gsize;
		uint32_t gd = (g + n_groups - cur) % n_groups;   /* groups round-robin from cur */
		in_cur |= (uint64_t)(gd == 0) << ids[i];
		key[ids[i]] = ((uint64_t)gd << 8) | sched_rot(ids[i], start);
	}
	sched_sort_by_key(ids, n, key);
	s->rank_issuable = group_limit(p, core, in_cur, (live & (1ull << cur)) != 0);
}

const struct sched_ops sched_tl_ops = { "tl", group_init, group_event, tl_rank, group_fini, 0, NULL, NULL };

/* ---- OWL ---- */

uint32_t sched_owl_form_groups(uint32_t n_ctas, uint32_t k_warps, uint32_t g_size,
			       uint32_t group_size[SCHED_OWL_MAX_GROUPS])
{
	if (n_ctas == 0)
		return 0;
	if (k_warps == 0)
		k_warps = 1;
	/* FORM GROUPS, Algorithm 1: smallest n with n*k >= g_size. */
	uint32_t n = 1;
	while (n * k_warps < g_size)
		n++;
	uint32_t g_core = n_ctas / n;
	if (g_core == 0) {
		/* Fewer CTAs than one group needs: all of them form the one group (Sec 4.2, WP). */
		group_size[0] = n_ctas;
		return 1;
	}
	if (g_core > SCHED_OWL_MAX_GROUPS)
		g_core = SCHED_OWL_MAX_GROUPS;
	for (uint32_t g = 0; g < g_core; g++)
		group_size[g] = n;
	/* The last group absorbs the remainder, so no group falls below g_size (Sec 4.1). */
	group_size[g_core - 1] += n_ctas - g_core * n;
	return g_core;
}

uint32_t sched_owl_group_priority(enum sched_owl_kind kind, uint32_t g_num, uint32_t core_id,
				  uint32_t g_core)
{
	switch (kind) {
	case SCHED_OWL_CTA:
		return 0;
	case SCHED_OWL_LOCALITY:
		return g_num;
	case SCHED_OWL_BLP:
		/* (g_num - core_ID) mod g_core, as a non-negative residue. */
		return g_core ? (uint32_t)(((int64_t)g_num - (int64_t)(core_id % g_core) + g_core) % g_core) : 0;
	}
	return 0;
}


static uint8_t owl_free_id(const struct owl_membership *m)
{
	for (uint32_t g = 0; g < SCHED_OWL_MAX_GROUPS; g++)
		if (!m->n_ctas[g])
			return (uint8_t)g;
	return OWL_NO_GROUP;
}

static void owl_leave(struct owl_membership *m, uint32_t slot)
{
	uint8_t g = m->group_of_slot[slot];
	if (g == OWL_NO_GROUP)
		return;
	m->group_of_slot[slot] = OWL_NO_GROUP;
	if (--m->n_ctas[g])
		return;
	/* the group is done: those after it move up a place, the next one leads */
	uint32_t i = 0;
	while (i < m->n_ring && m->ring[i] != g)
		i++;
	assert(i < m->n_ring);
	memmove(m->ring + i, m->ring + i + 1, m->n_ring - i - 1);
	m->n_ring--;
	uint8_t next = !m->n_ring ? OWL_NO_GROUP : i < m->n_ring ? m->ring[i] : m->ring[0];
	for (uint32_t si = 0; si < SCHED_MAX_SCHEDULERS; si++)
		if (m->cur_id[si] == g)
			m->cur_id[si] = next;
}

static void owl_join(struct owl_membership *m, uint32_t slot)
{
	assert(m->group_of_slot[slot] == OWL_NO_GROUP); /* a slot is reused after its CTA_FINISH */
	uint8_t g = m->n_ring ? m->ring[m->n_ring - 1] : OWL_NO_GROUP;
	if (g == OWL_NO_GROUP || m->n_ctas[g] >= m->n_per_group) {
		/* fewer groups than CTA slots are live, so an id is free */
		g = owl_free_id(m);
		assert(g != OWL_NO_GROUP);
		m->ring[m->n_ring++] = g;
		for (uint32_t si = 0; si < SCHED_MAX_SCHEDULERS; si++)
			if (m->cur_id[si] == OWL_NO_GROUP)
				m->cur_id[si] = g;
	}
	m->n_ctas[g]++;
	m->group_of_slot[slot] = g;
}

/* FORM GROUPS (Algorithm 1) over the CTAs resident now, oldest first; the ring starts at the
 * group of priority 0: g_num 0 for CTA-Aware and -Locality, g_num = core_ID mod g_core for BLP,
 * so that ring position p holds the group with g_pri = p. */
static void owl_form(const struct sched_core_view *core, enum sched_owl_kind kind, uint32_t g_size,
		     struct owl_membership *m)
{
	uint16_t slot[SCHED_MAX_CTAS];
	uint64_t seq_of[SCHED_MAX_WARPS] = { 0 };   /* indexed by CTA slot (< SCHED_MAX_CTAS) */
	uint32_t n = 0, k_seen = 0;
	uint64_t seen = 0;
	for (uint32_t w = 0; w < core->max_warps; w++) {
		const struct sched_warp_view *v = &core->warps[w];
		if (!v->valid || v->cta_slot >= SCHED_MAX_CTAS)
			continue;
		if (v->warp_in_cta + 1u > k_seen)
			k_seen = v->warp_in_cta + 1u;
		if (seen & (1ull << v->cta_slot))
			continue;
		seen |= 1ull << v->cta_slot;
		slot[n++] = v->cta_slot;
		seq_of[v->cta_slot] = v->cta_launch_seq;
	}
	sched_sort_by_key(slot, n, seq_of);
	uint32_t k = core->warps_per_cta ? core->warps_per_cta : k_seen;
	k = k ? k : 1;
	uint32_t size[SCHED_OWL_MAX_GROUPS];
	uint32_t g_core = sched_owl_form_groups(n, k, g_size, size);
	memset(m, 0, sizeof *m);
	memset(m->group_of_slot, OWL_NO_GROUP, sizeof m->group_of_slot);
	m->n_per_group = 1;
	while (m->n_per_group * k < g_size)
		m->n_per_group++;
	uint32_t c = 0;
	for (uint32_t g = 0; g < g_core; g++)
		for (uint32_t j = 0; j < size[g] && c < n; j++, m->n_ctas[g]++)
			m->group_of_slot[slot[c++]] = (uint8_t)g;
	for (uint32_t g = 0; g < g_core; g++)
		m->ring[kind == SCHED_OWL_CTA ? g : sched_owl_group_priority(kind, g, core->core_id, g_core)] = (uint8_t)g;
	m->n_ring = g_core;
	memset(m->cur_id, g_core ? m->ring[0] : OWL_NO_GROUP, sizeof m->cur_id);
	m->formed = true;
}

/* The groups as the ranking reads them: the membership (formed first if needed) and which warp
 * slots are valid now. */
static void owl_build(const struct sched_core_view *core, enum sched_owl_kind kind, uint32_t g_size,
		      struct owl_membership *m, struct owl_groups *og)
{
	if (!m->formed)
		owl_form(core, kind, g_size, m);
	uint8_t pos_of_id[SCHED_OWL_MAX_GROUPS];
	memset(og, 0, sizeof *og);
	for (uint32_t p = 0; p < m->n_ring; p++) {
		pos_of_id[m->ring[p]] = (uint8_t)p;
		og->order[p] = p;
		og->group_at[p] = (uint8_t)p;
	}
	og->g_core = m->n_ring;
	for (uint32_t sl = 0; sl < SCHED_MAX_CTAS; sl++)
		og->group_of_slot[sl] = m->group_of_slot[sl] == OWL_NO_GROUP ? 0 : pos_of_id[m->group_of_slot[sl]];
	for (uint32_t w = 0; w < core->max_warps; w++) {
		const struct sched_warp_view *v = &core->warps[w];
		if (!v->valid || v->cta_slot >= SCHED_MAX_CTAS)
			continue;
		/* a resident CTA always has a group: formed with it, or joined at its launch */
		assert(m->group_of_slot[v->cta_slot] != OWL_NO_GROUP);
		og->sched_warps[v->sched_idx % SCHED_MAX_SCHEDULERS] |= 1ull << w;
		og->warps_of[og->group_of_slot[v->cta_slot]] |= 1ull << w;
	}
}

/* The group Algorithm 1 chooses for scheduler si now, from all its warps (blocked_mask). */
struct owl_choice {
	uint64_t mine;                               /* the scheduler's valid warps */
	const uint32_t *order;                       /* group -> priority position */
	uint32_t order_cta[SCHED_OWL_MAX_GROUPS];
	uint32_t chosen_pos, chosen_g;               /* chosen_pos == g_core: none live */
	bool limit;                                  /* issue confined to the chosen group */
};

/* false: no groups (the ranking keeps the order given). */
static bool owl_choose(struct sched *s, enum sched_owl_kind kind, uint32_t si, struct owl_choice *c)
{
	struct group_state *st = s->state;
	const struct sched_params *p = sched_params_of(s);
	const struct sched_core_view *core = s->core;
	if (!st->og_valid) {
		owl_build(core, kind, p->group_size_warps, &st->om, &st->og);
		st->og_valid = true;
	}
	const struct owl_groups *og = &st->og;
	c->mine = og->sched_warps[si];
	if (og->g_core == 0 || !c->mine)
		return false;
	/* Groups with a warp of this scheduler not blocked: by default not waiting on data from
	 * L2/DRAM (Algorithm 1 "unavailability of data"; a barrier wait is not that: a group is
	 * whole CTAs, so its barriers release from inside it). */
	uint64_t blocked = p->owl_blocked == SCHED_OWL_BLOCKED_MISS ? core->miss_mask : core->blocked_mask;
	uint64_t live = 0, unblocked = c->mine & ~blocked;
	for (uint32_t g = 0; g < og->g_core; g++)
		live |= (uint64_t)((og->warps_of[g] & unblocked) != 0) << g;
	c->order = og->order;
	c->chosen_g = 0;
	if (kind == SCHED_OWL_CTA) {
		/* Equal priorities, strict round-robin: stay on the current group until all its
		 * warps are blocked, then the next group in order (Sec 4.1, Fig 4A). */
		uint32_t cur = 0;
		while (cur + 1 < og->g_core && st->om.ring[cur] != st->om.cur_id[si])
			cur++;
		if (!(live & (1ull << cur)))
			cur = next_live_group(live, (cur + 1) % og->g_core, og->g_core);
		st->om.cur_id[si] = st->om.ring[cur];
		for (uint32_t g = 0; g < og->g_core; g++)
			c->order_cta[g] = (g + og->g_core - cur) % og->g_core;
		c->order = c->order_cta;
		c->chosen_g = cur;
		c->chosen_pos = (live & (1ull << cur)) ? 0 : og->g_core;
	} else {
		/* Fixed priorities g_pri (Algorithm 1): the best group with a warp not blocked is
		 * the one chosen; as soon as a warp of a better group is ready again, that group
		 * wins (Sec 4.2, Fig 4B). g_pri is a permutation of 0..g_core-1 here. */
		c->chosen_pos = og->g_core;
		for (uint64_t m = live; m; m &= m - 1) {
			uint32_t g = (uint32_t)__builtin_ctzll(m);
			if (c->order[g] < c->chosen_pos) {
				c->chosen_pos = c->order[g];
				c->chosen_g = g;
			}
		}
	}
	/* Algorithm 1: "the scheduler cannot choose warps from different group(s) unless all
	 * warps of the already-chosen group are blocked". */
	bool chosen = c->chosen_pos < og->g_core;
	c->limit = group_limit(p, core, chosen ? og->warps_of[c->chosen_g] & c->mine : 0, chosen) != 0;
	return true;
}

/* OWL's ranking as keys (sched_ops.keys, SCHED_RANK_ANY_SUBSET): the chosen group first, then
 * the others in priority order, round-robin inside a group; returns the bound of the chosen
 * group's keys when issue is confined to it (Algorithm 1), else UINT64_MAX. Which group is
 * chosen depends on all the scheduler's warps (blocked_mask), not only on ids. */
static uint64_t owl_keys(struct sched *s, enum sched_owl_kind kind, uint32_t si, const uint16_t *ids, uint32_t n,
			 uint64_t *key)
{
	struct group_state *st = s->state;
	const struct sched_core_view *core = s->core;
	const struct owl_groups *og = &st->og;
	si %= SCHED_MAX_SCHEDULERS;
	struct owl_choice c;
	if (!owl_choose(s, kind, si, &c)) {
		for (uint32_t i = 0; i < n; i++)
			key[ids[i]] = i; /* no groups: the order as given */
		return UINT64_MAX;
	}
	uint32_t start = sched_last_lrr_start(&st->last, si);
	for (uint32_t i = 0; i < n; i++) {
		const struct sched_warp_view *v = &core->warps[ids[i]];
		uint32_t pos = v->cta_slot < SCHED_MAX_CTAS && v->valid ? c.order[og->group_of_slot[v->cta_slot]]
									 : og->g_core + 1;
		/* The chosen group first, then the others in priority order. */
		pos = pos == c.chosen_pos ? 0 : pos + 1;
		/* Warps inside a group: round-robin (Sec 4.1). */
		key[ids[i]] = ((uint64_t)pos << 8) | sched_rot(ids[i], start);
	}
	/* The chosen group's warps lead the ranking (keys below 1 << 8). */
	return c.limit ? 1ull << 8 : UINT64_MAX;
}

/* sched_ops.first for the fixed-priority kinds: the smallest key owl_keys would give among
 * warps, walking the groups in priority order instead of keying every warp. */
static uint16_t owl_first(struct sched *s, enum sched_owl_kind kind, uint32_t si, uint64_t warps)
{
	struct group_state *st = s->state;
	const struct owl_groups *og = &st->og;
	si %= SCHED_MAX_SCHEDULERS;
	struct owl_choice c;
	if (!owl_choose(s, kind, si, &c))
		return (uint16_t)__builtin_ctzll(warps); /* keys in the order given: slot order */
	uint32_t start = sched_last_lrr_start(&st->last, si);
	bool chosen = c.chosen_pos < og->g_core;
	if (chosen) {
		uint64_t m = warps & og->warps_of[c.chosen_g];
		if (m)
			return sched_first_rot(m, start);
	}
	if (c.limit)
		return UINT16_MAX; /* none of the chosen group's: none may issue */
	for (uint32_t pos = 0; pos < og->g_core; pos++) {
		uint64_t m = warps & og->warps_of[og->group_at[pos]];
		if (pos != c.chosen_pos && m)
			return sched_first_rot(m, start);
	}
	/* Warps outside every group (not expected with the groups current): the keys decide. */
	uint16_t ids[SCHED_MAX_WARPS] = { 0 }; /* (zeroed for gcc's maybe-uninitialized; rare path) */
	uint64_t *key = sched_key_scratch(s);
	uint32_t n = 0;
	for (uint64_t m = warps; m; m &= m - 1)
		ids[n++] = (uint16_t)__builtin_ctzll(m);
	owl_keys(s, kind, si, ids, n, key);
	uint32_t b = 0;
	for (uint32_t i = 1; i < n; i++)
		if (key[ids[i]] < key[ids[b]])
			b = i;
	return ids[b];
}

static void owl_rank(struct sched *s, enum sched_owl_kind kind, uint32_t si, uint16_t *ids, uint32_t n)
{
	uint64_t *key = sched_key_scratch(s);
	uint64_t bound = owl_keys(s, kind, si, ids, n, key);
	sched_sort_by_key(ids, n, key);
	uint32_t lim = 0;
	for (uint32_t i = 0; bound != UINT64_MAX && i < n; i++)
		lim += key[ids[i]] < bound;
	s->rank_issuable = lim;
}



static void owl_cta_rank(struct sched *s, uint32_t si, uint64_t now, uint16_t *ids, uint32_t n)
{
	(void)now;
	owl_rank(s, SCHED_OWL_CTA, si, ids, n);
}
static void owl_locality_rank(struct sched *s, uint32_t si, uint64_t now, uint16_t *ids, uint32_t n)
{
	(void)now;
	owl_rank(s, SCHED_OWL_LOCALITY, si, ids, n);
}
static void owl_blp_rank(struct sched *s, uint32_t si, uint64_t now, uint16_t *ids, uint32_t n)
{
	(void)now;
	owl_rank(s, SCHED_OWL_BLP, si, ids, n);
}
static uint64_t owl_locality_keys(struct sched *s, uint32_t si, const uint16_t *ids, uint32_t n, uint64_t *key)
{
	return owl_keys(s, SCHED_OWL_LOCALITY, si, ids, n, key);
}
static uint64_t owl_blp_keys(struct sched *s, uint32_t si, const uint16_t *ids, uint32_t n, uint64_t *key)
{
	return owl_keys(s, SCHED_OWL_BLP, si, ids, n, key);
}
static uint16_t owl_locality_first(struct sched *s, uint32_t si, uint64_t warps)
{
	return owl_first(s, SCHED_OWL_LOCALITY, si, warps);
}
static uint16_t owl_blp_first(struct sched *s, uint32_t si, uint64_t warps)
{
	return owl_first(s, SCHED_OWL_BLP, si, warps);
}

const struct sched_ops sched_owl_cta_ops = { "owl-cta", group_init, group_event, owl_cta_rank, group_fini, 0, NULL, NULL };
const struct sched_ops sched_owl_locality_ops = { "owl-locality", group_init, group_event, owl_locality_rank, group_fini, SCHED_RANK_PURE | SCHED_RANK_ANY_SUBSET, owl_locality_keys, owl_locality_first };
const struct sched_ops sched_owl_blp_ops = { "owl-blp", group_init, group_event, owl_blp_rank, group_fini, SCHED_RANK_PURE | SCHED_RANK_ANY_SUBSET, owl_blp_keys, owl_blp_first };
