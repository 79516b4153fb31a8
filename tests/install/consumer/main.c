/* A program outside the project that uses an installed sweep. */
#include <stdio.h>
#include <string.h>

#include <sweep/sweep.h>

int main(void)
{
    sw_sphere a = {{0, 0, 0}, 1};
    sw_vec3 p = {4, 0, 0};
    sw_hit h = sw_sweep_sphere_point(&a, sw_v3(6, 0, 0), p, NULL);
    /* The precision the consumer compiles with must be the library's. */
    if (strcmp(sw_precision(), sizeof(sw_real) == sizeof(double) ? "double" : "float") != 0) {
        printf("precision mismatch: library %s\n", sw_precision());
        return 1;
    }
    if (!h.hit || h.t != SW_R(0.5)) {
        printf("unexpected answer: hit=%d t=%g\n", h.hit, (double)h.t);
        return 1;
    }
    printf("sweep %s (%s): t=%g\n", sw_version(), sw_precision(), (double)h.t);
    return 0;
}
