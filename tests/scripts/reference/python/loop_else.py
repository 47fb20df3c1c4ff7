# else on for and while loops: it runs when the loop ends without a break (also after no
# iteration at all), not after a break or a return, and a continue on the last item does
# not skip it.
def find(items, wanted):
    for index, item in enumerate(items):
        if item == wanted:
            print("found at", index)
            break
    else:
        print("not found")
        return -1
    return index


print(find([3, 1, 4], 4), find([3, 1, 4], 5), find([], 1))

n = 10
while n > 1:
    n //= 3
    if n == 7:
        break
else:
    print("while ended with", n)

while True:
    break
else:
    print("never printed")

for k in range(3):
    if k == 2:
        continue
else:
    print("continue on the last item still reaches else", k)


def first_even(numbers):
    for n in numbers:
        if n % 2 == 0:
            return n
    else:
        return None


print(first_even([1, 3, 6, 8]), first_even([1, 3]))
count = 0
for i in range(3):
    for j in range(3):
        if i * j == 2:
            break
    else:
        count += 1
print("inner loops that ran through:", count)
