# torch._dynamo.explain: graphs, graph breaks with their reasons, ops and guards.
import torch


def fn(x):
    x = torch.sigmoid(x)
    torch._dynamo.graph_break()
    x = x * 2
    if x.sum() > 1:
        return x - 1
    return x + 1


explanation = torch._dynamo.explain(fn)(torch.ones(4))
print("graphs:", explanation.graph_count)
print("breaks:", explanation.graph_break_count)
print("ops:", explanation.op_count)
for reason in explanation.break_reasons:
    print("-", reason.reason)
