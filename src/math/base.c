/* Replaceable invalid-input handler, version and status names. */
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

static void default_handler(const char* what, const char* file, int line)
{
    fprintf(stderr, "sweep: invalid input (%s) at %s:%d\n", what, file, line);
    abort();
}

static sw_assert_fn* handler = default_handler;

void sw_set_assert_handler(sw_assert_fn* fn) { handler = fn ? fn : default_handler; }

void sw_internal_report_invalid(const char* what, const char* file, int line)
{
#ifdef SWEEP_ASSERTS
    handler(what, file, line);
#else
    (void)what;
    (void)file;
    (void)line;
#endif
}

const char* sw_version(void) { return SW_VERSION_STRING; }
const char* sw_precision(void) { return SW_PRECISION_NAME; }

const char* sw_status_name(sw_status s)
{
    switch (s) {
    case SW_OK:
        return "ok";
    case SW_INVALID_INPUT:
        return "invalid input";
    case SW_UNSUPPORTED:
        return "unsupported";
    }
    return "?";
}

const char* sw_feature_kind_name(sw_feature_kind k)
{
    static const char* const names[] = {"none", "vertex", "edge", "face"};
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}
