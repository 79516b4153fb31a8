/* Robust scalar helpers. */
#include "internal.h"

int sw_solve_quadratic(sw_real a, sw_real b, sw_real c, sw_real* t0, sw_real* t1)
{
    if (a == 0) {
        if (b == 0) {
            return 0;
        }
        *t0 = *t1 = -c / b;
        return 1;
    }
    sw_real disc = b * b - 4 * a * c;
    if (disc < 0) {
        return 0;
    }
    /* q = -(b + sign(b) sqrt(disc)) / 2; the roots q/a and c/q never
     * subtract nearly equal numbers. */
    sw_real root = sw_sqrt(disc);
    sw_real q = b >= 0 ? -(b + root) / 2 : (root - b) / 2;
    sw_real r0 = q / a;
    sw_real r1 = q != 0 ? c / q : r0; /* q = 0 only when b = c = 0: double root 0 */
    if (r0 > r1) {
        sw_real tmp = r0;
        r0 = r1;
        r1 = tmp;
    }
    *t0 = r0;
    *t1 = r1;
    return 2;
}
