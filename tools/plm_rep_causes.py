"""Why English originals of the masked-LM benchmark get no Rep. partner (docs/plm.md, "Rep. coverage"): re-run the
build's selection (same rules, same spread, zoo training text left out) and ask ``replace`` again with the
sense-share rule switched off, then with the frequency rule (``EN_MIN_FREQUENCY_RATIO``) switched off too. Usage: ``python tools/plm_rep_causes.py ../shared/data``."""
import sys
from collections import Counter
from pathlib import Path

from interpeval.benchmarks.plm import build as B
from interpeval.benchmarks.plm import synonyms
from interpeval.benchmarks.plm.perturb import recheck, replace
from interpeval.benchmarks.plm.words import NUMBER_WORDS, is_en_content

data = Path(sys.argv[1])
SHIPPED = synonyms.MIN_FIRST_SENSE, synonyms.MIN_FIRST_COUNT  # the build's sense-share rule
SHIPPED_RATIO = synonyms.EN_MIN_FREQUENCY_RATIO  # the build's frequency rule
exclude = B.zoo_trained_hashes()
for dim in ("grammar", "semantics", "knowledge", "reasoning", "computation"):
    pools = {r: [it for it in p if it.provenance.get("text_sha1") not in exclude]
             for r, p in B.BUILDERS[dim](data, "en", Counter()).items()}
    originals = B.spread(pools, B.PAPER_SIZES["en"][dim])
    has = [it for it in originals if (p := replace(it)) is not None and recheck(it, p) is None]
    rest = [it for it in originals if it not in has]
    no_word = [it for it in rest if not any(
        it.words[i].isalpha() and it.words[i].islower() and is_en_content(it.words[i])
        and it.words[i] not in NUMBER_WORDS for i in it.rationale)]
    synonyms.MIN_FIRST_SENSE, synonyms.MIN_FIRST_COUNT = 0.0, 0
    several = [it for it in rest if it not in no_word and (p := replace(it)) is not None and recheck(it, p) is None]
    synonyms.EN_MIN_FREQUENCY_RATIO = 0.0
    rarer = [it for it in rest if it not in no_word and it not in several and (p := replace(it)) is not None
             and recheck(it, p) is None]
    synonyms.MIN_FIRST_SENSE, synonyms.MIN_FIRST_COUNT = SHIPPED  # the next dimension is built by the build's rules
    synonyms.EN_MIN_FREQUENCY_RATIO = SHIPPED_RATIO
    other = len(rest) - len(no_word) - len(several) - len(rarer)
    print(f"en {dim}: originals {len(originals)}, with Rep. {len(has)}, no lowercase content word in the "
          f"rationale {len(no_word)}, no synonym passing the other checks {other}, "
          f"a synonym only for a word read in several senses {len(several)}, "
          f"a synonym only rarer than the word (frequency rule) {len(rarer)}")
