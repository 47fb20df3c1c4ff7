# A small CNN (convolutions, BatchNorm in train mode, ReLU, max pooling, a linear head)
# trained with SGD (momentum) on cross_entropy for 20 steps, eagerly and then compiled: the
# compiled forward changes BatchNorm's running statistics and batch counter in place
# (functionalized, copied back after each call) and AOT Autograd gives it a backward graph.
# Both print the same losses and end with the same running statistics. Inputs and weights
# are made with exact integer arithmetic and one division, so both libraries start from the
# same bits.
import torch
import torch.nn.functional as F


class SmallCNN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(1, 4, 3, padding=1)
        self.bn1 = torch.nn.BatchNorm2d(4)
        self.conv2 = torch.nn.Conv2d(4, 6, 3, padding=1)
        self.bn2 = torch.nn.BatchNorm2d(6)
        self.fc = torch.nn.Linear(6 * 2 * 2, 3)

    def forward(self, x):
        x = F.max_pool2d(torch.relu(self.bn1(self.conv1(x))), 2)
        x = F.max_pool2d(torch.relu(self.bn2(self.conv2(x))), 2)
        return self.fc(x.flatten(1))


def fresh_model():
    model = SmallCNN()
    # Values set explicitly: our random generator is not PyTorch's.
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(((torch.arange(p.numel()) * 7 % 11).float() - 5).reshape(p.shape) / (10 + 4 * i))
    return model


x = ((torch.arange(8 * 8 * 8) * 37 % 101).float() / 50 - 1).reshape(8, 1, 8, 8)
y = torch.tensor([0, 1, 2, 1, 0, 2, 2, 1])


def train(model, forward):
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for step in range(20):
        opt.zero_grad()
        loss = F.cross_entropy(forward(x), y)
        loss.backward()
        opt.step()
        print(f"step {step}: loss {loss.item():.4f}")
    print(model.bn1.running_mean)
    print(model.bn2.running_var)
    print(model.bn1.num_batches_tracked)


model = fresh_model()
train(model, model)
model.eval()
print(model(x[:2]).argmax(dim=1))

model = fresh_model()
train(model, torch.compile(model))
model.eval()
print(model(x[:2]).argmax(dim=1))
