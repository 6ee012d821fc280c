"""The example positions of docs/notation.md, one a game, for the engine's tests
(imported by name: a conftest cannot be imported reliably once several exist)."""

CRUEL_EXAMPLE = (
    "cruel 5C9H2D4D/KD3S8C5D/9C9S7D3H/TD3D4S5H/QC6DKS2C/KH9DQS2H/6H5SQH8H/"
    "QD6SJCJH/JS8D4C3C/7SJD2STS/7HTC8S7C/6CTHKC4H"
)
FLOWER_EXAMPLE = (
    "flower 8D5C3H2DQS6C/AHQCTC4C8S5H/6DJSKDQH9C2S/TD2CTH7DAC4H/5S6H4S2HQD3D/"
    "7SKH3C7CJCJD TS8C6S9H9SKC4DAD3SJHKS5D8HAS7H9D"
)
