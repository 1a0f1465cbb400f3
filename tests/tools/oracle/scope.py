# The Python twin of tests/golden/oracle/scope.tl.
from tlprint import p

count = 0


def bump():
    global count
    count += 1
    count = count * 2


bump()
bump()
p(count)


def make():
    global made, other
    made = list((1,))
    other = "o"


make()
p(made, other)
x = "global"


def outer():
    x = "outer"

    def inner():
        global x
        x = "from inner"
    inner()
    return x


p(outer(), x)


def shadow():
    x = "local"
    return x


p(shadow(), x)


def reads():
    return x


p(reads())


def loop_global():
    global total
    total = 0
    for i in range(5):
        total += i


loop_global()
p(total)


def in_branch(flag):
    if flag:
        global late
    late = flag


in_branch(False)
p(late)
