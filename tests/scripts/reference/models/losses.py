# Classification losses as a language model's training step computes them: cross_entropy
# over class indices (with ignore_index, class weights, label smoothing, every reduction),
# over class probabilities, over (N, C, L) scores, nll_loss on log-probabilities, the loss
# modules; then the same loss compiled.
import torch
import torch.nn as nn
import torch.nn.functional as F

logits = torch.tensor([[2.0, -1.0, 0.5, 0.0], [0.1, 0.2, 0.3, 0.4], [-2.0, 3.0, 1.0, -0.5]])
target = torch.tensor([0, 3, 1])
print(F.cross_entropy(logits, target))
print(F.cross_entropy(logits, target, reduction="sum"))
print(F.cross_entropy(logits, target, reduction="none"))
print(F.cross_entropy(logits, torch.tensor([0, -100, 1])))
print(F.cross_entropy(logits, torch.tensor([0, 2, 1]), ignore_index=2, reduction="none"))
weight = torch.tensor([1.0, 2.0, 0.5, 3.0])
print(F.cross_entropy(logits, target, weight=weight))
print(F.cross_entropy(logits, target, label_smoothing=0.1))
print(F.cross_entropy(logits, target, label_smoothing=0.2, reduction="none"))
probabilities = torch.tensor([[0.7, 0.1, 0.1, 0.1], [0.0, 0.0, 0.5, 0.5], [0.25, 0.25, 0.25, 0.25]])
print(F.cross_entropy(logits, probabilities))
print(F.cross_entropy(logits, probabilities, label_smoothing=0.1, reduction="sum"))
print(F.cross_entropy(logits[0], target[0]))
sequence = torch.stack([logits.t(), logits.t() * 0.5])  # (N=2, C=4, L=3)
print(F.cross_entropy(sequence, torch.tensor([[0, 3, 1], [1, 1, 2]])))
print(F.nll_loss(torch.log_softmax(logits, dim=1), target))
criterion = nn.CrossEntropyLoss(weight=weight, ignore_index=3)
print(criterion, criterion(logits, target), list(criterion.state_dict().keys()))
print(nn.NLLLoss(reduction="sum")(torch.log_softmax(logits, dim=1), target), nn.MSELoss()(logits, logits * 2))


@torch.compile
def loss_of(scores, labels):
    return F.cross_entropy(scores, labels)


print(torch.allclose(loss_of(logits, target), F.cross_entropy(logits, target)))
