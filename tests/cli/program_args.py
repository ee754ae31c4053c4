# A program's own arguments follow its file; argparse reads them and sys.exit sets the status.
import argparse
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--frames", type=int, default=10)
parser.add_argument("--headless", action="store_true")
args = parser.parse_args()
print("argv", sys.argv[1:], "frames", args.frames, "headless", args.headless)
sys.exit(args.frames % 7)
