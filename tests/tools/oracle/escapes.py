# The Python twin of tests/golden/oracle/escapes.tl.
print(repr("cr\r lf\n tab\t bell\a bs\b ff\f vt\v"), repr('\\ \' \"'), repr("\0\7\101\1012\777"))
print(repr("\x41\x7a\xe9\xff"), repr("\u00e9\u2028\uFFFD"), repr("\U0001F600\U00000041"), len("\U0001F600"))
print("one \
line", repr(f"{1}\x2b{2}\u003d{1 + 2}\n"), repr(f'\t{"x"}\r'))
print("step 3/10\r", end="")
print("step 10/10")
