# The Python twin of tests/golden/oracle/text.tl.
from tlprint import p

s = "naïve café ☕"
p(len(s), len(""), len("日本語"))
p(s[0], s[2], s[-1], s[-3], s[11])
p(s[2:5], s[:-2], s[6:], s[::2], s[::-1], s[-4:-1], s[8:2:-2], s[100:], s[5:5], "|")
for c in "añ☕":
    p(c, ord(c))
p("ï" in s, "café" in s, "cafe" in s, "" in s, "e" not in s)
p("ab" + "cd", "ab" * 3, "-" * 0, 2 * "xy", "é" * 2)
p("a" < "b", "abc" < "abd", "ab" < "abc", "é" > "z", "Z" < "a", "ab" <= "ab", "b" >= "ab", "" < "a")
p("abc" == "abc", "abc" != "abd", "a" == "a ")

# split and join
parts = "a,b,,c,".split(",")
p(len(parts), "|".join(parts))
parts = "  lots   of\twhite\n space  ".split()
p(len(parts), "|".join(parts))
p("|".join("a b c d".split(" ", 2)), "|".join("a b c d".split(None, 1)), "|".join("  x  y ".split(None, 1)))
p("|".join("x--y--z".split("--")), len("".split()), len("".split(",")), "|".join("日本,語".split(",")))
p(",".join(["x", "y", "z"]), "".join(("a", "b")), ", ".join(list()), "-".join("abc"))

# strip, affixes, replace, find, count
p("[" + "  hi there \t".strip() + "]", "[" + "  hi ".lstrip() + "]", "[" + "  hi ".rstrip() + "]")
p("xxhixyx".strip("xy"), "xxhix".lstrip("x"), "xxhix".rstrip("x"), "☕a☕".strip("☕"), "[" + "xxx".strip("x") + "]")
p("hello".startswith("he"), "hello".startswith(("x", "hel")), "hello".endswith("lo"), "hello".endswith(("a", "b")), "".startswith(""))
p("hello world".replace("o", "0"), "aaaa".replace("a", "b", 2), "ab".replace("", "-"), "abc".replace("", "-", 2), "abc".replace("x", "y"))
p("hello".find("l"), "hello".rfind("l"), "hello".find("z"), "héllo".find("llo"), "abc".find(""), "abc".rfind(""))
p("hello".count("l"), "aaaa".count("aa"), "abc".count(""), "日本日本".count("日"))

# case, classes, padding
p("Hello Straße".upper(), "ÀÉÎ Ǆ".lower(), "ΟΔΟΣ ΣΑΣ".lower(), "İ".lower() == "i̇", "ß".upper())
p("123".isdigit(), "12a".isdigit(), "٣".isdigit(), "".isdigit(), "abc".isalpha(), "añ".isalpha(), "a1".isalpha())
p(" \t\n".isspace(), "".isspace(), " a".isspace(), "　".isspace())
p("[" + "ab".ljust(5) + "]", "[" + "ab".rjust(5, "*") + "]", "[" + "ab".center(5) + "]", "[" + "abc".center(6, "é") + "]", "[" + "abcdef".ljust(3) + "]")
p("42".zfill(5), "-42".zfill(5), "+7".zfill(4), "abc".zfill(2), "".zfill(3))
lines = ("one" + chr(13) + chr(10) + "two" + chr(13) + "three\n\nfour\n").splitlines()
p(len(lines), "|".join(lines))
p(len("a\nb\n".splitlines(True)), len("".splitlines()))
p(ord("a"), ord("é"), ord("☕"), ord("😀"), chr(97), chr(233), chr(9749), chr(128512))

# methods read as calls too
p(str.upper("abc"), str.split("a b")[1], str.strip("  x  "), len("".join(list("abcd"))))
