# numpy has no topk; torch.topk([1, 2, 3], 4) raises "selected index k out of range"
import sys
sys.exit("RuntimeError: selected index k out of range (torch.topk)")
