# The Python twin of tests/golden/oracle/text_methods.tl.
from tlprint import p

# case: titlecase letters, full mappings, the final sigma inside title and swapcase
p("hello wORLD, it's tl".title(), "ǆemal ǉubav".title(), "ßtraße ﬁsh".title(), "ὈΔΥΣΣΕΎΣ".title())
p("hELLO World".capitalize(), "ǆ".capitalize(), "ßa".capitalize(), "".capitalize(), "1st PLACE".capitalize())
p("Hello ǅ World ß".swapcase(), "ΑΣ ΑΣ".swapcase(), "İstanbul".swapcase(), "ﬁ".swapcase())
p("Straße ΣΑΣ ς µ ﬁ".casefold(), "Straße".casefold() == "STRASSE".casefold(), "ǅ".casefold())
p("ΑΣ.Β".lower(), "aΣ'".lower(), "Σ".lower(), "xΣy".lower(), "aΣ 1".title())

# classes
p("0123".isdecimal(), "٣٤".isdecimal(), "²".isdecimal(), "½".isdecimal(), "".isdecimal())
p("²".isdigit(), "½".isnumeric(), "Ⅻ".isnumeric(), "一".isnumeric(), "1.5".isnumeric(), "".isnumeric())
p("abc123".isalnum(), "añ½".isalnum(), "a_1".isalnum(), "".isalnum(), " ".isalnum())
p("tl".isascii(), "".isascii(), "tλ".isascii(), chr(127).isascii(), chr(128).isascii())
p("ABC 1".isupper(), "AbC".isupper(), "123".isupper(), "ǅ".isupper(), "ΣΑΣ".isupper(), "".isupper())
p("abc 1".islower(), "aBc".islower(), "123".islower(), "ǆ".islower(), "ß".islower(), "ª".islower())
p("Hello World".istitle(), "Hello world".istitle(), "HEllo".istitle(), "ǅungla".istitle(), "1A 2B".istitle(), "".istitle(), "A1a".istitle())

# splitting from the right
p(repr("a,b,,c,".rsplit(",")), repr("a,b,c".rsplit(",", 1)), repr("a,b,c".rsplit(",", 0)), repr(",a".rsplit(",", 5)))
p(repr(("  lots  of\twhite" + chr(0x2003) + "space  ").rsplit()), repr("  a b  c ".rsplit(None, 1)), repr("   ".rsplit()), repr("".rsplit(",")))
p(repr("a---b".rsplit("--")), repr("a---b".split("--")), repr("日本,語,".rsplit(",", 1)), repr("x".rsplit("xy")))
p(repr("blk.0.attn_q.weight".rsplit(".", 1)), repr(" a ".rsplit(None, 0)), repr("a  b".rsplit(" ")))

# partitions
p(repr("key=value=1".partition("=")), repr("key=value=1".rpartition("=")), repr("abc".partition("x")), repr("abc".rpartition("x")))
p(repr("a--b--c".partition("--")), repr("a--b--c".rpartition("--")), repr("☕ and ☕".rpartition("☕")), repr("".partition("a")))
for f in (lambda: "abc".partition(""), lambda: "abc".rsplit("")):
    try:
        f()
    except ValueError as e:
        p("ValueError")

# affixes, rindex
p("blk.3.ffn_up".removeprefix("blk.3."), "weights.npy".removesuffix(".npy"), "abc".removeprefix("x"), "abc".removesuffix(""), "abc".removeprefix("abcd"), "aa".removesuffix("a"))
p("a.b.c".rindex("."), "hello".rindex("l"), "héllo".rindex("é"), "abc".rindex(""), "aaa".rindex("aa"))
try:
    "abc".rindex("z")
except ValueError as e:
    p("ValueError")

# tabs: columns from the last \n or \r, counted in characters
p(repr("a\tbc\td".expandtabs(4)), repr("\t".expandtabs()), repr("ab\tc".expandtabs(0)), repr("ab\tc".expandtabs(-3)))
p(repr(("x\ty" + chr(13) + "\tz\n\tw").expandtabs(3)), repr("日本\tx".expandtabs(4)), repr("abcd\te".expandtabs(4)))

# windows: start and end as a slice's, indexes still counted from the start of the string
s = "a,b,é,日,b"
p(s.find(",", 2), s.find(",", -3), s.rfind(",", 0, 5), s.find("b", 3, 100), s.find("", 20), s.find("", 9), s.rfind("", 2, 4))
p(s.index("b", 2), s.rindex(",", 0, -2), s.count(",", 3), s.count("", 8), s.count("", 20), s.count(",", 5, 2))
p(s.startswith("b", 2), s.startswith(("x", "é"), 4), s.endswith("é", 0, 5), s.endswith(",", -4, -3), s.startswith("", 9), s.startswith("", 10), s.endswith("", 3, 2))
xs = list((1, 2, 1, 3, 1))
p(xs.index(1, 1), xs.index(1, -2), xs.index(3, 0, 4), (1, 2, 1).index(1, 1))
