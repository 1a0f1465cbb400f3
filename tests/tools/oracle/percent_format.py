# The Python twin of tests/golden/oracle/percent_format.tl.
from tlprint import p

x = 2.0 / 3.0
p("%5.2f|%-4s|%03d|%%" % (x, "ab", 7))
p("%s and %s" % ("tl", "numpy"), "%d items" % 3, "%r" % "it's", "%a" % "café", "%c%c" % (72, "i"))

# integers: precision as minimum digits, the 0 flag after sign and prefix, # prefixes
p("[%05.3d] [%-05d] [%.3d] [%+.3x] [%#.5x] [%#05x] [%#o] [%#.3o] [%#X]" % (5, 5, -5, 255, 255, 255, 8, 8, -255))
p("[% d] [%+ d] [% 05d] [%+08d] [%#8x] [%-#8o] [%x] [%o] [%i|%u] [%ld]" % (5, 5, 5, 42, 42, 42, -255, -8, 1, 2, 9))
p("%d %d %d %d" % (3.99, -3.99, 1e20, True), "%.0d|%#x|%#o" % (0, 0, 0))

# reals
p("[%e] [%G] [%#g] [%#.0f] [%.0e] [%05.1f] [%-+8.2f] [%08.2f] [%10.4e]" % (12345.678, 1e-10, 1.0, 3.0, 5.5, -2.0, 3.14159, -3.14159, -0.0))
p("[%g %g %g] [%.3g] [%.0f %.0f] [%.2e] [%F] [%05f] [%e]" % (1e-5, 123456789.0, 0.0001, 0.0001234, 0.5, 1.5, 1e300, 1e999, -1e999, 7))

# text: precision cuts, width right-aligns unless -
p("[%-10s|%10s] [%.2s] [%10.3s] [%-4s] [%.1s] [%3c] [%5s] [%05s]" % ("left", "right", "héllo", "abcdef", "日本", "日本", "é", "true", "ab"))

# widths and precisions from the arguments
p("[%*d] [%-*d] [%0*d] [%.*s] [%*.*f] [%.*f]" % (-5, 3, 5, 42, 5, 42, 2, "abcd", 8, 2, 3.14159, -2, 3.14159))

# a dict for %(name); one value that is not a tuple
p("%(a)s-%(b)d-%(a(b))s" % {"a": "x", "b": 2, "a(b)": 7}, "abc" % {"a": 1}, "abc" % (), "%s %s" % (1, 2), "%s" % ((1, 2),))

# errors: the kinds (CPython's OverflowError is a ValueError here, its KeyError an IndexError)
for t in ("%d", "%x", "%c", "%f", "%", "%y", "%d %d", "abc", "%(a)s", "%*d", "%5%"):
    for v in ("5", 3.5, 1114112, 1j, (1,), (1, 2), {"b": 1}, ("a", 1)):
        try:
            p(t, repr(t % v))
        except Exception as e:
            p(t, {"OverflowError": "ValueError", "KeyError": "IndexError"}.get(type(e).__name__, type(e).__name__))
