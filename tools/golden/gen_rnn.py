"""Golden values for tests/nn/rnn_test.cpp: RNN/LSTM/GRU modules and cells with PyTorch's
weights (copied into the file, the test loads them into Ember modules), their outputs, final
states and parameter gradients, plus the packing utilities.
Run: /usr/bin/python3 tools/golden/gen_rnn.py"""
import torch
import torch.nn as nn
from torch.nn.utils import rnn as rnn_utils

from golden import GoldenWriter

torch.manual_seed(0)
g = GoldenWriter("rnn")


def add_params(name, m):
    for pname, p in m.named_parameters():
        g.add("%s.param.%s" % (name, pname), p)


def add_grads(name, m):
    for pname, p in m.named_parameters():
        g.add("%s.grad.%s" % (name, pname), p.grad)


def backward_weighted(name, outs):
    """loss = sum(out_i * w_i) with random weights w_i stored as <name>.gout<i>."""
    loss = 0
    for i, o in enumerate(outs):
        w = torch.randn(o.shape, dtype=o.dtype)
        g.add("%s.gout%d" % (name, i), w)
        loss = loss + (o * w).sum()
    loss.backward()


def module_case(name, m, x, state=None, dtype=torch.float64):
    """Dense input. state: None, a tensor, or a tuple (h0, c0)."""
    m = m.to(dtype)
    x = x.to(dtype).requires_grad_()
    add_params(name, m)
    g.add(name + ".x", x)
    if isinstance(state, tuple):
        state = tuple(s.to(dtype) for s in state)
        g.add(name + ".h0", state[0])
        g.add(name + ".c0", state[1])
    elif state is not None:
        state = state.to(dtype)
        g.add(name + ".h0", state)
    out, st = m(x, state)
    g.add(name + ".out", out)
    outs = [out]
    if isinstance(st, tuple):
        g.add(name + ".h_n", st[0])
        g.add(name + ".c_n", st[1])
        outs += [st[0], st[1]]
    else:
        g.add(name + ".h_n", st)
        outs.append(st)
    backward_weighted(name, outs)
    add_grads(name, m)
    g.add(name + ".grad.x", x.grad)


def packed_case(name, m, padded, lengths, enforce_sorted, state=None):
    m = m.double()
    padded = padded.double().requires_grad_()
    add_params(name, m)
    g.add(name + ".x", padded)
    g.add(name + ".lengths", torch.tensor(lengths))
    if isinstance(state, tuple):
        state = tuple(s.double() for s in state)
        g.add(name + ".h0", state[0])
        g.add(name + ".c0", state[1])
    elif state is not None:
        state = state.double()
        g.add(name + ".h0", state)
    packed = rnn_utils.pack_padded_sequence(padded, torch.tensor(lengths), enforce_sorted=enforce_sorted)
    out_packed, st = m(packed, state)
    g.add(name + ".out_data", out_packed.data)
    out, out_lengths = rnn_utils.pad_packed_sequence(out_packed)
    g.add(name + ".out", out)
    g.add(name + ".out_lengths", out_lengths)
    outs = [out]
    if isinstance(st, tuple):
        g.add(name + ".h_n", st[0])
        g.add(name + ".c_n", st[1])
        outs += [st[0], st[1]]
    else:
        g.add(name + ".h_n", st)
        outs.append(st)
    backward_weighted(name, outs)
    add_grads(name, m)
    g.add(name + ".grad.x", padded.grad)


module_case("rnn_tanh_2l", nn.RNN(4, 5, num_layers=2), torch.randn(6, 3, 4), torch.randn(2, 3, 5))
module_case("rnn_relu_bi_bf", nn.RNN(4, 5, nonlinearity="relu", bidirectional=True, batch_first=True),
            torch.randn(3, 6, 4))
module_case("rnn_nobias_unbatched", nn.RNN(4, 5, bias=False), torch.randn(6, 4), torch.randn(1, 5))
module_case("lstm_2l_bi", nn.LSTM(4, 5, num_layers=2, bidirectional=True), torch.randn(6, 3, 4),
            (torch.randn(4, 3, 5), torch.randn(4, 3, 5)))
module_case("lstm_f32", nn.LSTM(4, 5, batch_first=True), torch.randn(3, 6, 4), dtype=torch.float32)
module_case("lstm_proj", nn.LSTM(4, 6, proj_size=3, num_layers=2), torch.randn(5, 2, 4),
            (torch.randn(2, 2, 3), torch.randn(2, 2, 6)))
module_case("lstm_unbatched", nn.LSTM(4, 5, bidirectional=True), torch.randn(6, 4))
module_case("gru_2l_bi_bf", nn.GRU(4, 5, num_layers=2, bidirectional=True, batch_first=True), torch.randn(3, 6, 4),
            torch.randn(4, 3, 5))
module_case("gru_unbatched", nn.GRU(4, 5), torch.randn(6, 4), torch.randn(1, 5))

packed_case("lstm_packed", nn.LSTM(4, 5, num_layers=2, bidirectional=True), torch.randn(6, 4, 4), [3, 6, 2, 5],
            False, (torch.randn(4, 4, 5), torch.randn(4, 4, 5)))
packed_case("gru_packed", nn.GRU(4, 5, bidirectional=True), torch.randn(5, 3, 4), [2, 5, 4], False,
            torch.randn(2, 3, 5))
packed_case("rnn_packed", nn.RNN(4, 5, num_layers=2), torch.randn(5, 3, 4), [5, 3, 3], True)


def cell_case(name, m, x, state=None):
    m = m.double()
    x = x.double().requires_grad_()
    add_params(name, m)
    g.add(name + ".x", x)
    if isinstance(state, tuple):
        state = tuple(s.double() for s in state)
        g.add(name + ".h0", state[0])
        g.add(name + ".c0", state[1])
    elif state is not None:
        state = state.double()
        g.add(name + ".h0", state)
    out = m(x, state)
    outs = list(out) if isinstance(out, tuple) else [out]
    for i, o in enumerate(outs):
        g.add("%s.out%d" % (name, i), o)
    backward_weighted(name, outs)
    add_grads(name, m)
    g.add(name + ".grad.x", x.grad)


cell_case("rnncell", nn.RNNCell(4, 5), torch.randn(3, 4), torch.randn(3, 5))
cell_case("rnncell_relu_unbatched", nn.RNNCell(4, 5, nonlinearity="relu"), torch.randn(4))
cell_case("lstmcell", nn.LSTMCell(4, 5), torch.randn(3, 4), (torch.randn(3, 5), torch.randn(3, 5)))
cell_case("lstmcell_unbatched", nn.LSTMCell(4, 5, bias=False), torch.randn(4))
cell_case("grucell", nn.GRUCell(4, 5), torch.randn(3, 4), torch.randn(3, 5))
cell_case("grucell_unbatched", nn.GRUCell(4, 5), torch.randn(4), torch.randn(5))

# Packing utilities.
seqs = [torch.randn(2, 3), torch.randn(4, 3), torch.randn(1, 3)]
for i, s in enumerate(seqs):
    g.add("util.seq%d" % i, s)
g.add("util.pad_sequence", rnn_utils.pad_sequence(seqs))
g.add("util.pad_sequence_bf", rnn_utils.pad_sequence(seqs, batch_first=True, padding_value=-1.5))
packed = rnn_utils.pack_sequence(seqs, enforce_sorted=False)
g.add("util.pack_sequence.data", packed.data)
g.add("util.pack_sequence.batch_sizes", packed.batch_sizes)
g.add("util.pack_sequence.sorted_indices", packed.sorted_indices)
g.add("util.pack_sequence.unsorted_indices", packed.unsorted_indices)
padded, lengths = rnn_utils.pad_packed_sequence(packed, batch_first=True, padding_value=7.0, total_length=6)
g.add("util.pad_packed.padded", padded)
g.add("util.pad_packed.lengths", lengths)
bf = torch.randn(3, 4, 2)
g.add("util.bf.x", bf)
packed_bf = rnn_utils.pack_padded_sequence(bf, torch.tensor([4, 2, 3]), batch_first=True, enforce_sorted=False)
g.add("util.bf.data", packed_bf.data)
g.add("util.bf.batch_sizes", packed_bf.batch_sizes)

g.save()
