"""Golden values for pack_padded_sequence / pack_sequence with enforce_sorted=False when
lengths tie: torch.sort(lengths, descending=True) is not stable above 16 sequences, and the
order it picks decides sorted_indices and the packed data. Run:
/usr/bin/python3 tools/golden/gen_pack_ties.py"""
import torch
import torch.nn.utils.rnn as rnn_utils

from golden import GoldenWriter

torch.manual_seed(0)
g = GoldenWriter("pack_ties")

CASES = {
    "small": [3, 5, 3, 1, 5],
    "sixteen": [2, 4, 2, 4, 1, 3, 3, 2, 4, 1, 2, 3, 4, 4, 1, 2],
    "seventeen": [2, 4, 2, 4, 1, 3, 3, 2, 4, 1, 2, 3, 4, 4, 1, 2, 3],
    "thirty": [3, 1, 3, 2, 3, 1, 2, 3, 3, 2, 1, 1, 3, 2, 3, 3, 2, 1, 3, 2, 1, 3, 3, 3, 2, 2, 1, 3, 2, 3],
    "all_equal_40": [4] * 40,
    "random_70": torch.randint(1, 6, (70,)).tolist(),
}
for name, lengths in CASES.items():
    T, B = max(lengths), len(lengths)
    # Values encode (time, batch) so a wrong order shows up in the data too.
    x = (torch.arange(T).view(T, 1, 1) * 1000 + torch.arange(B).view(1, B, 1)).double().expand(T, B, 2).contiguous()
    x[:, :, 1] *= -1
    p = rnn_utils.pack_padded_sequence(x, torch.tensor(lengths), enforce_sorted=False)
    g.add(name + ".lengths", torch.tensor(lengths))
    g.add(name + ".data", p.data)
    g.add(name + ".batch_sizes", p.batch_sizes)
    g.add(name + ".sorted_indices", p.sorted_indices)
    g.add(name + ".unsorted_indices", p.unsorted_indices)
    bf = rnn_utils.pack_padded_sequence(x.transpose(0, 1), torch.tensor(lengths), batch_first=True,
                                        enforce_sorted=False)
    assert torch.equal(bf.data, p.data)

seqs = [torch.full((n, 1), float(i)) for i, n in enumerate(CASES["thirty"])]
p = rnn_utils.pack_sequence(seqs, enforce_sorted=False)
g.add("pack_sequence.data", p.data)
g.add("pack_sequence.sorted_indices", p.sorted_indices)
g.save()
