"""Golden values for ember::audio beamforming (psd, MVDR weights, RTFs, PSD /
SoudenMVDR / RTFMVDR) from torchaudio 0.13.

Run with Debian's interpreter: /usr/bin/python3 tools/golden/gen_audio_beamforming.py
Inputs are complex128 so the comparisons are tight; the gradient cases use
with_grads on real views (the C++ test rebuilds the complex inputs).
"""
import os
import sys

import torch
import torchaudio.functional as F
import torchaudio.transforms as T

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GoldenWriter  # noqa: E402

torch.manual_seed(3)
w = GoldenWriter("audio_beamforming")

B, C, Fr, Tm = 2, 3, 5, 8
spec = torch.randn(B, C, Fr, Tm, dtype=torch.cdouble)
mask_s = torch.rand(B, Fr, Tm, dtype=torch.double)
mask_n = 1 - mask_s
w.add("spec", spec)
w.add("mask_s", mask_s)
w.add("mask_n", mask_n)
w.add("psd.nomask", F.psd(spec))
w.add("psd.mask", F.psd(spec, mask_s))
w.add("psd.mask_nonorm", F.psd(spec, mask_s, False))
w.add("psd.mask_eps", F.psd(spec, mask_s, True, 1e-3))
psd_s = F.psd(spec, mask_s)
psd_n = F.psd(spec, mask_n)
w.add("psd_s", psd_s)
w.add("psd_n", psd_n)
ref = torch.zeros(B, C, dtype=torch.double)
ref[0, 1] = 1
ref[1, 2] = 1
w.add("ref", ref)
w.add("souden.ref0", F.mvdr_weights_souden(psd_s, psd_n, 0))
w.add("souden.ref2_noload", F.mvdr_weights_souden(psd_s, psd_n, 2, False))
w.add("souden.tensor", F.mvdr_weights_souden(psd_s, psd_n, ref, True, 1e-5, 1e-6))
rtf = F.rtf_power(psd_s, psd_n, 0)
w.add("rtf_power.ref0", rtf)
w.add("rtf_power.iter1", F.rtf_power(psd_s, psd_n, 1, 1))
w.add("rtf_power.iter2_noload", F.rtf_power(psd_s, psd_n, 2, 2, False))
w.add("rtf_power.iter5_tensor", F.rtf_power(psd_s, psd_n, ref, 5, True, 1e-4))
evd = F.rtf_evd(psd_s)
# Eigenvectors are defined up to a phase: store the phase-free |v| and v * conj(v_0)/|v_0|.
w.add("rtf_evd.abs", evd.abs())
w.add("rtf_evd.aligned", evd * (evd[..., :1].conj() / evd[..., :1].abs()))
w.add("rtf.none", F.mvdr_weights_rtf(rtf, psd_n))
w.add("rtf.ref1", F.mvdr_weights_rtf(rtf, psd_n, 1))
w.add("rtf.tensor_noload", F.mvdr_weights_rtf(rtf, psd_n, ref, False, 1e-7, 1e-6))
bw = F.mvdr_weights_souden(psd_s, psd_n, 0)
w.add("apply", F.apply_beamforming(bw, spec))

# Modules.
mask_multi = torch.rand(B, C, Fr, Tm, dtype=torch.double)
w.add("mask_multi", mask_multi)
w.add("PSD.multi", T.PSD(multi_mask=True)(spec, mask_multi))
w.add("PSD.single", T.PSD()(spec, mask_s))
w.add("SoudenMVDR", T.SoudenMVDR()(spec, psd_s, psd_n, 1))
w.add("SoudenMVDR.tensor", T.SoudenMVDR()(spec, psd_s, psd_n, ref, False))
w.add("RTFMVDR", T.RTFMVDR()(spec, rtf, psd_n, 0))
w.add("RTFMVDR.tensor", T.RTFMVDR()(spec, rtf, psd_n, ref, True, 1e-6, 1e-7))

# The legacy MVDR module: each solution, multi_mask, online over two calls.
spec32 = spec.to(torch.cfloat)
mask32 = mask_s.float()
w.add("spec32", spec32)
w.add("mask32", mask32)
for sol in ["ref_channel", "stv_evd", "stv_power"]:
    w.add("MVDR." + sol, T.MVDR(ref_channel=1, solution=sol)(spec32, mask32))
w.add("MVDR.multi", T.MVDR(solution="stv_power", multi_mask=True)(spec, mask_multi, 1 - mask_multi))
w.add("MVDR.noload", T.MVDR(diag_loading=False)(spec, mask_s, mask_n))
online = T.MVDR(ref_channel=2, solution="stv_power", online=True)
w.add("MVDR.online1", online(spec[..., :4], mask_s[..., :4]))
w.add("MVDR.online2", online(spec[..., 4:], mask_s[..., 4:]))
for k, v in online.state_dict().items():
    w.add("MVDR.online.state." + k, v)

# Gradients: the full chain psd -> souden -> apply on real/imag parts.
def chain(re, im, m):
    x = torch.complex(re, im)
    s = F.psd(x, m)
    n = F.psd(x, 1 - m)
    out = F.apply_beamforming(F.mvdr_weights_souden(s, n, 0), x)
    return torch.view_as_real(out)


spec_g = torch.randn(1, 2, 3, 6, dtype=torch.cdouble)
w.with_grads("grad.souden_chain", chain, spec_g.real.clone(), spec_g.imag.clone(),
             torch.rand(1, 3, 6, dtype=torch.double) * 0.8 + 0.1)


def rtf_chain(re, im, m):
    x = torch.complex(re, im)
    s = F.psd(x, m)
    n = F.psd(x, 1 - m)
    r = F.rtf_power(s, n, 1)
    return torch.view_as_real(F.apply_beamforming(F.mvdr_weights_rtf(r, n, 1), x))


w.with_grads("grad.rtf_chain", rtf_chain, spec_g.real.clone(), spec_g.imag.clone(),
             torch.rand(1, 3, 6, dtype=torch.double) * 0.8 + 0.1)
w.save()
