"""Stage 7: OUT written whole or not at all, only where the generator can prove it wrote before."""
