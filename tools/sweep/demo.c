/* `sweep demo`: spheres bouncing inside a containing sphere among static
 * spheres, moved only by sweeps.
 *
 * Each step finds the earliest impact among all pairs, advances every
 * sphere to that time, bounces the pair and repeats until the step's time
 * is used up. Because every motion is swept, no sphere tunnels however far
 * it moves in one step (the fastest moves about 80 times its radius, more
 * than the container's diameter). After every impact and every step the
 * demo checks that no two spheres overlap and none has left the container
 * (beyond SW_TOLERANCE times the scene's scale), that every value is finite
 * and that the elastic bounces kept the energy; it exits 1 if any check
 * fails. The scene is fixed, so the output is deterministic. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/sweep.h"

#include "commands.h"

enum {
    MOVING = 7,
    STATIC = 4,
    DEFAULT_STEPS = 200,
    MAX_STEPS = 1000000,
    /* Impacts handled in one step before the rest of it is dropped (the
     * spheres then keep their valid positions); far above what the scene
     * needs, it only bounds a pathological cascade of contacts. */
    MAX_IMPACTS_PER_STEP = 64,
    SHOW_FIRST = 40,     /* impacts printed when there are many */
    SHOW_ALL_UP_TO = 150 /* ... and when all of them are printed */
};

typedef struct body {
    sw_sphere s;
    sw_vec3 v; /* displacement per step */
    sw_real mass;
} body;

typedef enum impact_kind { WITH_CONTAINER, WITH_STATIC, WITH_MOVING } impact_kind;

typedef struct impact {
    impact_kind kind;
    int i, j; /* moving sphere i against container, static j or moving j */
    sw_hit hit;
} impact;

typedef struct record {
    int step;
    sw_real time; /* within the step, in [0, 1] */
    impact e;
} record;

typedef struct scene {
    sw_sphere container;
    sw_sphere statics[STATIC];
    body moving[MOVING];
    sw_real tolerance; /* allowed overlap in the check: SW_TOLERANCE * scale */
} scene;

typedef struct stats {
    long impacts[3];
    long stalls;         /* steps cut short by MAX_IMPACTS_PER_STEP */
    long library_errors; /* results with a status other than SW_OK */
    sw_real max_overlap; /* worst penetration seen after any impact or step */
    int worst_step;      /* ... and in which step */
    bool non_finite;     /* a position or velocity became NaN or infinite */
    record shown[SHOW_ALL_UP_TO];
    int shown_count;
} stats;

static void init_scene(scene* s)
{
    static const sw_sphere statics[STATIC] = {
        {{4, 0, 0}, 1.5f}, {{-3, 4, 1}, 1.2f}, {{0, -5, -2}, 2}, {{-2, -1, 5}, 1}};
    static const struct {
        sw_sphere s;
        sw_vec3 v;
    } moving[MOVING] = {
        {{{-6, 0, 0}, 1}, {3, 1.1f, 0.4f}},
        {{{6, 4, 0}, 0.8f}, {-2.2f, 0.5f, 1.7f}},
        {{{0, 6, 3}, 0.6f}, {0.7f, -3.1f, -0.9f}},
        {{{2, -2, 6}, 1.2f}, {-1.3f, 0.9f, -2.4f}},
        {{{-5, -5, -3}, 0.5f}, {1.9f, 2.8f, 0.6f}},
        {{{1, 2, -6}, 0.9f}, {0, 0, 0}},    /* at rest until something hits it */
        {{{0, 0, 0}, 0.25f}, {17, 11, -6}}, /* the fast one: ~21 per step */
    };
    memset(s, 0, sizeof *s);
    s->container = (sw_sphere){{0, 0, 0}, 10};
    memcpy(s->statics, statics, sizeof statics);
    sw_real scale = s->container.radius + sw_max_abs(s->container.center);
    for (int i = 0; i < MOVING; ++i) {
        s->moving[i].s = moving[i].s;
        s->moving[i].v = moving[i].v;
        const sw_real r = moving[i].s.radius;
        s->moving[i].mass = r * r * r; /* equal density */
        scale = sw_max(scale, sw_length(moving[i].v));
    }
    s->tolerance = SW_TOLERANCE * scale;
}

static void consider(impact* best, bool* found, impact_kind kind, int i, int j, sw_hit h, stats* st)
{
    if (h.status != SW_OK) {
        ++st->library_errors;
        return;
    }
    if (h.hit && (!*found || h.t < best->hit.t)) {
        *found = true;
        best->kind = kind;
        best->i = i;
        best->j = j;
        best->hit = h;
    }
}

/* Impact of moving sphere i with the container's wall.
 *
 * The containment sweep answers any start that is not strictly inside with
 * an overlap at t = 0 (DESIGN.md §2), and a sphere that has just bounced off
 * the wall is on it. Moving outward, that is a bounce now. Moving inward, the
 * next wall contact is where its path leaves the room for its centre (the
 * ball of radius R - r): the path traversed backwards from its end enters
 * that ball there first, which a point sweep finds exactly. */
static sw_hit container_impact(const scene* s, const body* a, sw_vec3 d)
{
    sw_hit h = sw_sweep_sphere_inside_sphere(&a->s, d, &s->container);
    if (h.status != SW_OK || !h.overlapping) {
        return h;
    }
    sw_vec3 inward = sw_sub(s->container.center, a->s.center);
    if (sw_normalize(&inward) == 0) {
        h.hit = false; /* at the centre: only a sphere as big as the container */
        return h;
    }
    if (sw_dot(d, inward) < 0) {
        h.normal = inward;
        h.point = sw_madd(a->s.center, -a->s.radius, inward);
        return h;
    }
    const sw_sphere end = {sw_add(a->s.center, d), 0};
    const sw_sphere room = {s->container.center, s->container.radius - a->s.radius};
    const sw_hit back = sw_sweep_sphere_sphere(&end, sw_neg(d), &room, NULL);
    sw_hit out = {0};
    out.status = back.status;
    if (back.status == SW_OK && back.hit && !back.overlapping) {
        out.hit = true;
        out.t = 1 - back.t;
        out.normal = sw_neg(back.normal);
        out.point = sw_madd(back.point, a->s.radius, back.normal);
    }
    return out;
}

/* The earliest impact when every moving sphere i moves by v_i * remaining.
 * Sphere pairs in contact that are separating (or sliding) are not
 * impacts: ignore_separating. */
static bool earliest_impact(const scene* s, sw_real remaining, impact* best, stats* st)
{
    const sw_sweep_options opt = {0, true};
    bool found = false;
    for (int i = 0; i < MOVING; ++i) {
        const body* a = &s->moving[i];
        const sw_vec3 d = sw_scale(a->v, remaining);
        consider(best, &found, WITH_CONTAINER, i, -1, container_impact(s, a, d), st);
        for (int j = 0; j < STATIC; ++j) {
            consider(best, &found, WITH_STATIC, i, j, sw_sweep_sphere_sphere(&a->s, d, &s->statics[j], &opt), st);
        }
        for (int j = i + 1; j < MOVING; ++j) {
            const body* b = &s->moving[j];
            const sw_hit hm = sw_sweep_moving_spheres(&a->s, d, &b->s, sw_scale(b->v, remaining), &opt);
            consider(best, &found, WITH_MOVING, i, j, hm, st);
        }
    }
    return found;
}

/* Elastic bounce along the contact normal n (from B toward A): reflection
 * off the container or a static sphere, an equal-and-opposite impulse
 * between two moving spheres of masses proportional to their volumes. */
static void bounce(scene* s, const impact* e)
{
    body* a = &s->moving[e->i];
    const sw_vec3 n = e->hit.normal;
    if (e->kind != WITH_MOVING) {
        const sw_real vn = sw_dot(a->v, n);
        if (vn < 0) {
            a->v = sw_madd(a->v, -2 * vn, n);
        }
        return;
    }
    body* b = &s->moving[e->j];
    const sw_real vn = sw_dot(sw_sub(a->v, b->v), n);
    if (vn < 0) {
        const sw_real impulse = -2 * vn / (1 / a->mass + 1 / b->mass);
        a->v = sw_madd(a->v, impulse / a->mass, n);
        b->v = sw_madd(b->v, -impulse / b->mass, n);
    }
}

/* Largest penetration between any two spheres or out of the container
 * (negative when nothing touches). */
static sw_real worst_overlap(const scene* s)
{
    sw_real worst = -INFINITY;
    for (int i = 0; i < MOVING; ++i) {
        const sw_sphere* a = &s->moving[i].s;
        worst = sw_max(worst, sw_length(sw_sub(a->center, s->container.center)) + a->radius - s->container.radius);
        for (int j = 0; j < STATIC; ++j) {
            const sw_sphere* b = &s->statics[j];
            worst = sw_max(worst, a->radius + b->radius - sw_length(sw_sub(a->center, b->center)));
        }
        for (int j = i + 1; j < MOVING; ++j) {
            const sw_sphere* b = &s->moving[j].s;
            worst = sw_max(worst, a->radius + b->radius - sw_length(sw_sub(a->center, b->center)));
        }
    }
    return worst;
}

static sw_real energy(const scene* s)
{
    sw_real e = 0;
    for (int i = 0; i < MOVING; ++i) {
        e += s->moving[i].mass * sw_length_sq(s->moving[i].v);
    }
    return e;
}

static bool scene_finite(const scene* s)
{
    for (int i = 0; i < MOVING; ++i) {
        if (!sw_vec3_is_finite(s->moving[i].s.center) || !sw_vec3_is_finite(s->moving[i].v)) {
            return false;
        }
    }
    return true;
}

static void check_state(const scene* s, int step, stats* st)
{
    const sw_real w = worst_overlap(s);
    if (step == 0 || w > st->max_overlap) {
        st->max_overlap = w;
        st->worst_step = step;
    }
    if (!scene_finite(s) || !isfinite(energy(s))) {
        st->non_finite = true;
    }
}

static void move_all(scene* s, sw_real fraction)
{
    for (int i = 0; i < MOVING; ++i) {
        s->moving[i].s.center = sw_madd(s->moving[i].s.center, fraction, s->moving[i].v);
    }
}

static void run_step(scene* s, int step, stats* st)
{
    sw_real remaining = 1; /* fraction of the step still to move */
    for (int count = 0;; ++count) {
        if (count == MAX_IMPACTS_PER_STEP) {
            ++st->stalls;
            return;
        }
        impact e;
        if (!earliest_impact(s, remaining, &e, st)) {
            move_all(s, remaining);
            return;
        }
        const sw_real dt = e.hit.t * remaining;
        move_all(s, dt);
        remaining -= dt;
        check_state(s, step, st);
        ++st->impacts[e.kind];
        if (st->shown_count < SHOW_ALL_UP_TO) {
            st->shown[st->shown_count++] = (record){step, 1 - remaining, e};
        }
        bounce(s, &e);
    }
}

static void print_record(const record* r)
{
    static const char* const kinds[] = {"container", "static", "sphere"};
    const impact* e = &r->e;
    char what[48];
    if (e->kind == WITH_CONTAINER) {
        snprintf(what, sizeof what, "sphere %d -> container", e->i);
    } else {
        snprintf(what, sizeof what, "sphere %d -> %s %d", e->i, kinds[e->kind], e->j);
    }
    const sw_vec3 p = e->hit.point, n = e->hit.normal;
    printf("%5d  %.6f  %-24s (%8.4f %8.4f %8.4f)  (%7.4f %7.4f %7.4f)%s\n", r->step, (double)r->time, what, (double)p.x,
           (double)p.y, (double)p.z, (double)n.x, (double)n.y, (double)n.z, e->hit.overlapping ? "  in contact" : "");
}

static void usage(FILE* f)
{
    fprintf(f,
            "usage: sweep demo [--steps N] [--all]\n"
            "\n"
            "Spheres bouncing inside a containing sphere among static spheres, moved\n"
            "only by sweeps (one of them moves ~80 times its radius per step). Prints\n"
            "the impacts (time within the step, the pair, contact point and normal)\n"
            "and a final check that after every impact and step no spheres overlap\n"
            "and none has left the container; exits 1 if the check fails.\n"
            "\n"
            "  --steps N  number of steps (default %d)\n"
            "  --all      print every impact (default: all up to %d, else the first %d)\n",
            DEFAULT_STEPS, SHOW_ALL_UP_TO, SHOW_FIRST);
}

int cmd_demo(int argc, char** argv)
{
    long steps = DEFAULT_STEPS;
    bool show_all = false;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--all") == 0) {
            show_all = true;
        } else if (strcmp(argv[i], "--steps") == 0) {
            char* end = NULL;
            steps = i + 1 < argc ? strtol(argv[++i], &end, 10) : 0;
            if (!end || *end != '\0' || steps < 1 || steps > MAX_STEPS) {
                fprintf(stderr, "sweep demo: --steps needs a number from 1 to %d\n", MAX_STEPS);
                return 2;
            }
        } else {
            fprintf(stderr, "sweep demo: unknown argument '%s' (try 'sweep demo --help')\n", argv[i]);
            return 2;
        }
    }

    static scene s;
    static stats st;
    init_scene(&s);
    memset(&st, 0, sizeof st);

    int fastest = 0;
    for (int i = 1; i < MOVING; ++i) {
        if (sw_length(s.moving[i].v) > sw_length(s.moving[fastest].v)) {
            fastest = i;
        }
    }
    const sw_real speed = sw_length(s.moving[fastest].v);
    printf("sweep demo (%s): %d moving spheres inside a sphere of radius %g among %d static spheres, %ld steps\n",
           SW_PRECISION_NAME, MOVING, (double)s.container.radius, STATIC, steps);
    printf("fastest: sphere %d, radius %g, moves %.2f per step (%.0f times its radius)\n", fastest,
           (double)s.moving[fastest].s.radius, (double)speed, (double)(speed / s.moving[fastest].s.radius));
    printf(" step  time      impact                   point                          normal\n");

    const sw_real energy0 = energy(&s);
    check_state(&s, 0, &st);
    for (int step = 1; step <= steps; ++step) {
        const int before = st.shown_count;
        run_step(&s, step, &st);
        check_state(&s, step, &st);
        if (show_all) {
            /* Print as we go; the record buffer is reused. */
            for (int k = before; k < st.shown_count; ++k) {
                print_record(&st.shown[k]);
            }
            st.shown_count = 0;
        }
    }
    const long total = st.impacts[WITH_CONTAINER] + st.impacts[WITH_STATIC] + st.impacts[WITH_MOVING];
    if (!show_all) {
        const int n = total <= SHOW_ALL_UP_TO ? (int)total : SHOW_FIRST;
        for (int k = 0; k < n; ++k) {
            print_record(&st.shown[k]);
        }
        if (total > n) {
            printf("... %ld more impacts not shown (--all shows every one)\n", total - n);
        }
    }

    const sw_real energy1 = energy(&s);
    const double drift = fabs((double)energy1 - (double)energy0) / (double)energy0;
    printf("impacts: %ld (container %ld, static spheres %ld, moving spheres %ld); steps cut short: %ld\n", total,
           st.impacts[WITH_CONTAINER], st.impacts[WITH_STATIC], st.impacts[WITH_MOVING], st.stalls);

    /* Elastic bounces conserve energy; a drift beyond rounding would mean
     * wrong normals or impacts handled twice. */
    const bool overlap_ok = st.max_overlap <= s.tolerance;
    const bool energy_ok = !st.non_finite && drift <= 1e-3;
    const bool ok = overlap_ok && energy_ok && st.library_errors == 0;
    printf("check: %ld steps, max overlap %.3g at step %d (allowed %.3g), energy drift %.3g, %s, %ld library "
           "errors: %s\n",
           steps, (double)st.max_overlap, st.worst_step, (double)s.tolerance, drift,
           st.non_finite ? "NON-FINITE values" : "all finite", st.library_errors, ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
