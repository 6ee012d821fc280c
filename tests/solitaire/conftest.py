import sys
from pathlib import Path

# reference.py (the independent rules used to check perft counts) and
# example_positions.py live here.
sys.path.insert(0, str(Path(__file__).parent))
