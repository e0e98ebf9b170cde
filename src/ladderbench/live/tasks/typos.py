"""Typos: return a passage with its injected errors corrected and nothing else changed.

Material: the passage (or passages) a question is made from, drawn newest first from fetched
``--sources`` text and never served twice (the packaged corpus is only the fallback; see
``_corpus``). Every public answer is a passage, so a passage once used is spent.

Difficulty 0 (version 1): one passage with 4 to 10 realistic typos, each in a different
lower-case word: two adjacent letters swapped, a letter dropped, a letter doubled, a letter
replaced by a neighbouring key on a QWERTY keyboard, or a classic misspelling from a built-in list
("recieve", "definately"). A typo is never itself a real word, so each has one correction: an
edit must contain a letter pair that no word of the corpus or the passage contains ("drivng",
never "diving"), must not be in a built-in list of common and easily confused words or in the
corpus or passage, and must not follow the rules that turn "colour" into "color" or "metres" into
"meters".

What each step of ``difficulty`` adds (``difficulty_level``): one more misspelling (4 + d in all,
(d + 1) // 2 of them swaps inside words of 9+ letters, and each now the only real word one edit
away from its correction); every second step one more passage joined into the text (d=2: two,
d=12: seven, about 700 words to reproduce exactly); and errors a spelling checker does not flag,
growing with d: a sentence starting in lower case, a full stop missing before a capitalised
sentence opener, a word written twice ("the the"), "a" and "an" swapped. Passages carrying such a
mark of their own are not used (``clean``), so every mark in a question is one of its errors and
the corrected text is unique; the prompt names the kinds and the total count.

Why it is hard: the model must find every error (the prompt says how many) and reproduce the rest
of a long text exactly, resisting the urge to rephrase, modernise spelling or fix punctuation;
real-word errors are invisible to a skim and easy to "autocorrect" past.

Scoring: 1 when the original text appears in the answer (the <solution> content, or the whole
reply when it has no answer tags), after normalising whitespace and typographic quotes; else 0
(as LiveBench scores typos).
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ladderbench.errors import UserError
from ladderbench.grading.extract import extract_answer, strip_think
from ladderbench.grading.scorer import verdict
from ladderbench.items import Verdict
from ladderbench.live.base import Question, Sources, Task
from ladderbench.live.registry import register
from ladderbench.live.tasks._corpus import default_corpus, fresh_passages


@dataclass(frozen=True)
class TyposConfig:
    """How many typos a passage gets (drawn uniformly from the inclusive range)."""

    min_typos: int
    max_typos: int
    # Chance of using a classic misspelling when the chosen word has one in MISSPELLINGS.
    misspelling_rate: float = 0.7


SUBTASKS: dict[str, TyposConfig] = {
    "light": TyposConfig(min_typos=4, max_typos=5),
    "medium": TyposConfig(min_typos=6, max_typos=7),
    "heavy": TyposConfig(min_typos=8, max_typos=10),
}

PROMPT_TEMPLATE = """\
The passage below contains exactly {count} typos: misspelled words with swapped, missing, doubled \
or wrong letters. Each typo is in a different word.

{passage}

Rewrite the passage with every typo corrected. Change nothing else: keep every other word, the \
punctuation, the capitalisation and the spelling conventions (British or American) exactly as \
they are. Put the corrected passage, and nothing else, inside \
<solution></solution> tags."""

MAX_WORDS = 220  # longer source paragraphs are skipped while shorter ones exist
MIN_LENGTH = 5  # shorter words are left alone unless they have a classic misspelling

# Classic misspellings: correct word -> its common misspelling.
MISSPELLINGS: dict[str, str] = {
    "receive": "recieve",
    "received": "recieved",
    "receiving": "recieving",
    "receipt": "reciept",
    "definitely": "definately",
    "separate": "seperate",
    "necessary": "neccessary",
    "believe": "beleive",
    "friend": "freind",
    "friends": "freinds",
    "their": "thier",
    "which": "wich",
    "because": "becuase",
    "until": "untill",
    "beginning": "begining",
    "environment": "enviroment",
    "government": "goverment",
    "weird": "wierd",
    "piece": "peice",
    "pieces": "peices",
    "field": "feild",
    "fields": "feilds",
    "achieve": "acheive",
    "across": "accross",
    "address": "adress",
    "always": "allways",
    "argument": "arguement",
    "calendar": "calender",
    "completely": "completly",
    "different": "diffrent",
    "disappointed": "dissapointed",
    "finally": "finaly",
    "forty": "fourty",
    "grateful": "greatful",
    "immediately": "immediatly",
    "knowledge": "knowlege",
    "library": "libary",
    "occasion": "ocassion",
    "really": "realy",
    "surprise": "suprise",
    "surprised": "suprised",
    "surprisingly": "suprisingly",
    "truly": "truely",
    "usually": "usualy",
    "writing": "writting",
    "beautiful": "beatiful",
    "experience": "experiance",
    "familiar": "familar",
    "foreign": "foriegn",
    "height": "heigth",
    "island": "iland",
    "probably": "probaly",
    "remember": "rember",
    "sentence": "sentance",
    "successful": "succesful",
    "twelfth": "twelth",
    "actually": "actualy",
    "carefully": "carefuly",
    "embarrassed": "embarassed",
    "occurred": "occured",
    "tomorrow": "tommorow",
    "vacuum": "vaccum",
    "accommodation": "accomodation",
    "restaurant": "restaraunt",
    "business": "buisness",
    "guard": "gaurd",
    "ceiling": "cieling",
    "neighbour": "nieghbour",
    "neighbours": "nieghbours",
    "neighbor": "nieghbor",
    "rhythm": "rythm",
    "schedule": "schedual",
    "medieval": "medeval",
    "exhausted": "exausted",
    "patience": "patiance",
    "interrupt": "interupt",
    "opportunity": "oppurtunity",
    "pronunciation": "pronounciation",
    "exercise": "excercise",
    "threshold": "threshhold",
    "harass": "harrass",
    "millennium": "millenium",
    "possession": "posession",
    "committee": "commitee",
    "although": "allthough",
    "almost": "allmost",
    "together": "togehter",
}

QWERTY_NEIGHBOURS: dict[str, str] = {
    "q": "wa",
    "w": "qeas",
    "e": "wrsd",
    "r": "etdf",
    "t": "ryfg",
    "y": "tugh",
    "u": "yihj",
    "i": "uojk",
    "o": "ipkl",
    "p": "ol",
    "a": "qwsz",
    "s": "adwezx",
    "d": "sferxc",
    "f": "dgrtcv",
    "g": "fhtyvb",
    "h": "gjyubn",
    "j": "hkuinm",
    "k": "jliom",
    "l": "kop",
    "z": "asx",
    "x": "zcsd",
    "c": "xvdf",
    "v": "cbfg",
    "b": "vngh",
    "n": "bmhj",
    "m": "njk",
}

# Real words a random edit of a common word can produce: a typo must never be one of these
# (nor any word of the corpus or of the passage). Many are the famous confusable pairs.
REAL_WORDS_TEXT = """
a able aboard about above abroad abut achor act acton acts adapt add adds ado adopt advice
advise affect after again age ages aging ago aid aide aids aim aims air aisle ale all allowed
aloe aloud also altar alter am an and angel angle ant anther any ape are area arm arms art arts
as ash ask asks at ate aunt avid away awe axe bad bade bag bags balk ban band bar bare barn
bars barter bas base bass bat bath bats bay bays be bead beak beam bean bear beard beat bed
beds bee beef been beer bees beet begs begun bell bellow belt ben bend bent best bet bets bid
bidding biding bids big bight bin bind bing bins bird bit bite bits bitter blow blue boar board
boast boat bode body bog boil bold bolt bone bonze book boost boot booth bore bored born both
bow bowl bows box boxy boy boys brad brake bread break breath breathe bred breed brew brig brow
browed bud buds bug bugle bugs bulk bull bun buns burn burt bus bush bust but buy buys by bye
cab cabal cabs cad cain cake calf call calm calvary came camp can canceled cancelled cane cans
cap cape caps car card care carrousel cars cart carty case cash cast casual cat cats causal
causse cavalry cell cent center centre cereal cess chap chargee chin chip choose chord chose
cite clam clan clap claw clay cleat click clod coal coarse coat cock cod code coil coiler cold
collet collied color colour coma come comma complement compliment con cone conscience conscious
cooing cook cool cop cope cord core corer cork corn corral coss cost costal cot could council
counsel course cow cows coy crab cram crewel cruel cruet crumby cry cub cubs cud cue cup cups
cur curb curd cure curse curst cut cuts dace dad dads dairy dam dame dare dark dart date dawn
day days dead deaf deal dear debt decent deed deep deer deice den dens dent desert dessert
device devise dew diary dibble did die dies diet dig digs dim dine diner dining dink dinner
dinning dip dips dire dish do doe does dog dogs dole done doom door dos dose dot dots dove down
doze drag draw drew drip drop drunk dry dual due duel dues dug dune dusk dust duty each ear
eared earn ears ease easer east eat eats edge eel effect egg eggs eight either elf elicit elk
else emigrate emu end ends ensure envelop envelope era err eternal eve even ever evert every
evil eye eyes face fact fad fade fail faint fair fall fame fan fans fant far fare farm fat fate
favor favour fear feat fed fee feed feel fees feet feint fell felt fen fern few fiber fibre fie
fig fight figs file filing fill filling film find fine finer fins fir fire firm fish fist fit
fits five flag flair flare flat flavor flavour flea fled flee flew fling flip flour flow flower
fluor foe foes fog fold folk fond font food fool foot for ford fore fork form fort forth forty
foul four fourth fowl framer free fret fried frit from froth froward fry fuel fuff full fun
fund fur furl furs gag gage gain gains gait gal gale galley game gaol gap gaps gas gate gater
gave gear gel gem gems get gets gift gild gin girl give glad glue go goal goat god gods gold
golf gone good goof gorilla got gown grab gram grat grate gray great grew grey grid grim grin
grip grow guerrilla guise gum gun guns gut guts guy had hail hair hale half hall halt ham hams
hand hang harbor harbour hare harm hat hate hats have hay he head heal heald hear heard heat
heed heel held hell helm help hen hens her herd here hero hers hid hide high hike hill him hint
hip hips hire his hit hits hoard hoe hog hogs hold hole holly holy home honor honour hood hook
hooping hop hope hoping hopping hops horde horn hose host hot hour hove how hub hue hues hug
huge hum humidify hung hunt hurt hut huts ice idea idle idol if ill illicit immigrate in ink
inn inns insure into ion iron is isle it its jab jam jams jar jars jaw jaws jet jets jewellery
jewelry job jobs jog join jot joy joys jug just jut keen keep kept kerb key keys kid kids kilo
kin kind king kit kits knee knew knit knot know lab labeled labelled labor labour labs lace
lack lad lady lager laid lain lake lamb lame lamp land lane lap laps large last late later lath
latter lave law lawn laws lay lays lead leaf leak lean leap leat left leg legs lend lens less
lessen lesson lest let lets lid lids lie lied lief lien lies life lift like limb lime line ling
link lion lip lips list lit liters litres live load loaf loan lock loess log logs lone long loo
look loom loop loose lord lose loss lost lot lots loud love low luck lump lunes lung mad made
maid mail main make male mall malt man manly mantel mantle many map maps mar mare marital mark
marker mart martial mass mast mat mate mater math mats may me meal mean meat medal meddle meet
melt men mend mesh met metal mete meter meters metre metres mettle mew mid mile milk mill mind
mine miner minor mint minuet miss mist mix moan moat mob mobs mode modeling modelling mold mole
moon moor mop mops moral morale more moss most moth mould mow much mud mug mugs mule must my
nags nail name nap naps naval navel near neat neck need neighbor neighbour nest net nets new
news next nice nine no nod nods none noon nor nose not note now nun nut nuts nutter oak oar
oars oat oats odd of off oft oil old on once one oner only onto open or oral orb ore our out
outre oval over owe ower owl owls own pace paced pack pad pads page paid pail pain paining pair
pale paler palm pan pane panning pans pant panting par parch pare park part pass passed past
pasty pat pate path pats paw paws pay payed payer pays pea peace peak pear peas peat pedal
peddle peel peer peg pen pens per pet pets pew pie piece pier pies pig pigs piked pile pill
pilled pimping pin pine pink pins pint pipe pit pith pits place plain plan plane planed planned
plant plat plater play plea plot plough plow plum ply pod pods poem poet pole poll pond pone
pont pony pool poor pop poplar pore pork port pose poser post pot poter pots pour prase pray
precious prey principal principle pro profess pry pub pubs puck pug pun pup pups pure purse
push put quickset quiet quit quite rad rag rage rags raid rail rain rais raise ram rams ran
rang rap rare rase rat rate rater rats raw ray rays raze read real reap rear red reed reef reel
reign rein relace rent rest rib ribs rice ricer rich rid ridding ride rids rig right rigs rile
rim rims ring riot rip rips rise risk rite road roam roar rob robe rock rod rode rodge rods
role roll roof rook room roost root rope rose rosed rot rote roue roughy route rover row rows
rub rubs rue rug rugs rule rum run rung runs rush rust rut sack sacks sacred safe sag sags said
sail sake sale sallow salt same sand sane sang sap sare sat save saw saws say says scar scared
scene scotch scraped scrapped sea seal seam seaming seas seat see seed seek seel seem seen seep
self sell send sent sept serial set sets sever severe sew sews shale shard shear shed sheer
ship shirt shoe shop shot show shred shut sick side sift sigh sight sightly sign silk sill
silver simmer sin sinal sine sing singe sink sins sip sips sir sire sit site sits six size
skell ski skim skin skis sky slab slap slat sled slew slid slim slip slit sliver sloe slot slow
smog snag snaking snap snell snow so soak soap sob sobs sock sod soft soil sold sole soles
solver some son song sons soon soot sooth sop sopping sore sort sot sough soul soup sour sow
sower sows spa span spang spar spas spat sped spiel spilt spin spit spot sprig sprint spun spur
stab stag stair stake star stare stated stationary stationery stay steak steal steel stele stem
step stew sting stir stoke stong stoop stooping stop stram strike stringer stroy stub stuck
stud suade sub such suit suite sum sumner sun sung sunk super supper sure swam swan sway sweet
swim tab tabs tach tack tag tags tail take tale talk tall tam tame tan tans tap tape taped
tapped taps tar tars task tass tat tea teal team tear teas teat tee tell ten tend tens tent
tenty term test than that the theater theatre thee their them then there these they they're
thin this those thou three threw through thus thy tic tice tick tide tiding tidy tie tied tier
ties tile till tilt timbre time tin ting tinny tins tint tip tips tire tired to toad toe toes
told toll tom tome ton tone tons tony too took tool top tops tore torn toss tot tote tough tour
tow town toy toys trail traveled traveling travelled travelling tray tree trial trim trip trod
trow tub tubs tuck tug tugs tune tuned tuning turn tusk twin two tyre ugly under unit united
untied until up upon urn urns us use used user vain vale van vane vans vase vast vat vats veil
vein vent verb very vest vet vets via vial vie view vine void vow vows wade wafer wag wage
wager wags waist wait wake waled waling walk wall wand waned want war ward ware warm warn
warner warp wars wary was wash wasp waste wat watt wave waver wax way ways we weak weal wear
weather web webs wed wee weed week weep weigh weight weird well went wept were west wet wether
what wheat whee when where whet whether which while whim whine whip whits who who's whole whose
why wick wide widow wife wig wight wigs wild wile will wilt win wind wine wing wink wins wipe
wire wise wish wit witch with wits woe woes woke wold wolf won wood woof wool word wore work
worm worn wove wrap wren wring write writen written yam yams yap yaps yard yarn yawn ye yea
year yell yen yes yet yew yoke you you're young your zeal zero zone zoo
"""
REAL_WORDS = frozenset(REAL_WORDS_TEXT.split())

_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")
_KINDS = ("swap", "drop", "double", "neighbour")
_EDIT_TRIES = 16


@lru_cache(maxsize=1)
def _corpus_vocabulary() -> frozenset[str]:
    return frozenset(w.lower() for text in default_corpus() for w in _WORD.findall(text))


def _bigrams(word: str) -> set[str]:
    """Letter pairs of a word, with ^ and $ marking its ends."""
    marked = f"^{word}$"
    return {marked[i : i + 2] for i in range(len(marked) - 1)}


@lru_cache(maxsize=1)
def _corpus_bigrams() -> frozenset[str]:
    return frozenset(pair for word in _corpus_vocabulary() for pair in _bigrams(word))


def _vocabulary(passage: str) -> tuple[frozenset[str], frozenset[str]]:
    """Words a typo must not equal (the built-in list, the corpus, the passage) and the letter
    pairs those real words use: a typo must contain a pair outside them."""
    own = {w.lower() for w in _WORD.findall(passage)}
    pairs = set(_corpus_bigrams())
    for word in own:
        pairs |= _bigrams(word)
    return REAL_WORDS | _corpus_vocabulary() | own, frozenset(pairs)


def _edit(word: str, kind: str, rng: random.Random) -> str | None:
    """One random edit of ``word`` (lower case), or None if this kind cannot apply here.

    The first letter is never touched, nor is the last one replaced ("marked" to "marker"). So
    that the correction stays unique, a doubled pair is never reduced ("travelling"), "ou" before
    "r" never loses its u ("colour"), and a final "re" is never swapped to "er" ("metres").
    """
    n = len(word)
    if kind == "swap":
        spots = [
            i
            for i in range(1, n - 1)
            if word[i] != word[i + 1]
            and not (word[i : i + 2] == "re" and word[i + 2 :] in ("", "s"))
        ]
        if not spots:
            return None
        i = rng.choice(spots)
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    if kind == "drop":
        spots = [
            i
            for i in range(1, n - 1)
            if word[i] not in (word[i - 1], word[i + 1])
            and not (word[i] == "u" and word[i - 1] == "o" and word[i + 1] == "r")
        ]
        if not spots:
            return None
        i = rng.choice(spots)
        return word[:i] + word[i + 1 :]
    if kind == "double":
        spots = [
            i
            for i in range(1, n)
            if word[i] != word[i - 1] and word[i : i + 1] != word[i + 1 : i + 2]
        ]
        if not spots:
            return None
        i = rng.choice(spots)
        return word[: i + 1] + word[i] + word[i + 1 :]
    if kind == "neighbour":
        spots = [i for i in range(1, n - 1) if word[i] in QWERTY_NEIGHBOURS]
        if not spots:
            return None
        i = rng.choice(spots)
        return word[:i] + rng.choice(QWERTY_NEIGHBOURS[word[i]]) + word[i + 1 :]
    raise ValueError(f"unknown typo kind {kind!r}")


def inject_typos(
    passage: str, count: int, rng: random.Random, misspelling_rate: float = 0.7
) -> tuple[str, list[list[str]]]:
    """The passage with ``count`` typos in distinct words, and the [original, typo] pairs in order.

    Raises ValueError when the passage has too few words that can take a typo.
    """
    if count < 1:
        raise ValueError(f"typo count must be positive, got {count}")
    vocabulary, seen_pairs = _vocabulary(passage)
    tokens = [
        m
        for m in _WORD.finditer(passage)
        if m.group().islower()
        and "'" not in m.group()
        and (len(m.group()) >= MIN_LENGTH or m.group() in MISSPELLINGS)
    ]
    rng.shuffle(tokens)
    chosen: dict[int, tuple[int, str, str]] = {}  # start -> (end, original, typo)
    for m in tokens:
        if len(chosen) == count:
            break
        word = m.group()
        typo = None
        if word in MISSPELLINGS and rng.random() < misspelling_rate:
            typo = MISSPELLINGS[word]
            if typo.lower() in vocabulary:
                typo = None
        for _ in range(_EDIT_TRIES if typo is None else 0):
            candidate = _edit(word, rng.choice(_KINDS), rng)
            # An unseen letter pair all but guarantees a non-word ("drivng", never "diving").
            if candidate and candidate not in vocabulary and _bigrams(candidate) - seen_pairs:
                typo = candidate
                break
        if typo is not None:
            chosen[m.start()] = (m.end(), word, typo)
    if len(chosen) < count:
        raise ValueError(f"passage has only {len(chosen)} words that can take a typo")
    pieces, pairs, last = [], [], 0
    for start in sorted(chosen):
        end, word, typo = chosen[start]
        pieces.append(passage[last:start] + typo)
        pairs.append([word, typo])
        last = end
    pieces.append(passage[last:])
    return "".join(pieces), pairs


_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
_ANSWER_TAG = re.compile(r"<(?:solution|answer)>", re.I)


def normalise_passage(text: str) -> str:
    """NFC, straight quotes, and every run of whitespace as one space."""
    return " ".join(unicodedata.normalize("NFC", text).translate(_QUOTES).split())


# ---------------------------------------------------------------- difficulty 1 and up


@dataclass(frozen=True)
class TyposLevel:
    """A harder question: passages joined into one text and how many errors of each kind.

    Every kind leaves a mark a careful reader can find and undo in only one way (the text it is
    applied to has no such mark of its own, see ``clean``): a misspelling is a non-word with one
    real word one edit away; a lower-case sentence start; a full stop missing before a capitalised
    sentence opener; a word written twice; "a" before a vowel letter or "an" before a consonant.
    """

    passages: int
    spelling: int
    long_words: int  # of the spelling errors, how many are swaps inside a 9+ letter word
    capitalisation: int
    full_stops: int
    doubled: int
    articles: int

    @property
    def errors(self) -> int:
        return self.spelling + self.capitalisation + self.full_stops + self.doubled + self.articles


def difficulty_level(d: int) -> TyposLevel | None:
    """The level of difficulty ``d`` (None at 0: the version 1 light, medium and heavy mix).

    Each step adds a spelling error; every second step joins one more passage (d=2: two, d=12:
    seven, about 700 words to reproduce exactly); capitalisation, missing full stops, doubled words
    and a/an errors grow with ``d`` too, and from d=1 spelling errors move into long words.
    """
    if d < 0:
        raise ValueError(f"difficulty must be 0 or more, got {d}")
    if d == 0:
        return None
    return TyposLevel(
        passages=1 + d // 2,
        spelling=4 + d,
        long_words=min(4 + d, (d + 1) // 2),
        capitalisation=(d + 1) // 2,
        full_stops=d // 2,
        doubled=1 + d // 3,
        articles=d // 3,
    )


HARD_PROMPT_TEMPLATE = """\
The text between the lines BEGIN TEXT and END TEXT contains exactly {count} errors, each in a \
different place. Every error is of one of these kinds:
- a misspelled word (letters swapped, missing, doubled or wrong), which is never a real word;
- a sentence that starts with a lower-case letter;
- a missing full stop at the end of a sentence (the next sentence still starts with its capital);
- a word written twice in a row;
- "a" where "an" belongs or "an" where "a" belongs (by the first letter of the next word: "an" \
before a, e, i, o, u).

BEGIN TEXT
{text}
END TEXT

Rewrite the text with every error corrected. Change nothing else: keep every other word, the \
punctuation, the capitalisation, the paragraphs and the spelling conventions (British or \
American) exactly as they are. Put the corrected text, and nothing else, inside \
<solution></solution> tags."""

# Capitalised words that open sentences and are never names: a full stop goes missing only
# before one of them, so "river The" can only be "river. The".
SENTENCE_OPENERS: frozenset[str] = frozenset((
    "A", "After", "Again", "All", "Although", "An", "And", "Another", "As", "At", "Because",
    "Before", "Both", "But", "By", "Each", "Even", "Every", "For", "From", "He", "Her", "Here",
    "His", "How", "If", "In", "Instead", "It", "Its", "Many", "Most", "No", "Not", "Now", "Of",
    "On", "Once", "One", "Only", "Our", "Over", "She", "Since", "So", "Some", "Still", "Such",
    "That", "The", "Their", "Then", "There", "These", "They", "This", "Those", "Though", "To",
    "Today", "Under", "Until", "We", "What", "When", "Where", "Which", "While", "Who", "Why",
    "With", "Without", "Yet",
))  # fmt: skip
LONG_WORD = 9
_TOKEN = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")
_SENTENCE_START = re.compile(r"(?:^|[.!?][\"')\]]*\s+)[\"'(\[]*(?=[A-Za-z])")
_LOWER_START = re.compile(r"(?:^|[.!?][\"')\]]*\s+)[\"'(\[]*[a-z]")
_MISSING_STOP = re.compile(r"(?<![A-Za-z'])[a-z]{2,} ([A-Z][a-z]*)(?![A-Za-z'])")
_DOUBLED = re.compile(r"(?<![A-Za-z'])([A-Za-z]+) \1(?![A-Za-z'])")
_ARTICLE = re.compile(r"(?<![A-Za-z'])([Aa]n?) ([A-Za-z])")
_ABBREVIATIONS = frozenset({"mr", "mrs", "ms", "dr", "st", "prof", "jr", "sr", "vs", "etc", "no"})


def article_ok(article: str, next_letter: str) -> bool:
    """The letter rule this task uses: "an" before a vowel letter, "a" before any other."""
    return (article.lower() == "an") == (next_letter.lower() in "aeiou")


def clean(text: str) -> bool:
    """Whether a passage carries no error mark of its own, so every mark in a question is one
    of its errors: each sentence starts with a capital, no capitalised sentence opener follows a
    lower-case word, no word is doubled, and every a/an follows the letter rule."""
    if _LOWER_START.search(text) or _DOUBLED.search(text):
        return False
    if any(m.group(1) in SENTENCE_OPENERS for m in _MISSING_STOP.finditer(text)):
        return False
    return all(article_ok(m.group(1), m.group(2)) for m in _ARTICLE.finditer(text))


def _one_correction(typo: str, word: str, vocabulary: tuple[str, ...]) -> bool:
    """No real word but ``word`` lies one edit (OSA) from ``typo``: the correction is unique."""
    from rapidfuzz import process
    from rapidfuzz.distance import OSA

    near = process.extract(typo, vocabulary, scorer=OSA.distance, score_cutoff=1, limit=None)
    return {found for found, _, _ in near} <= {word}


@dataclass(frozen=True)
class _Edit:
    start: int
    end: int
    replacement: str
    kind: str


class _Planner:
    """Edits on distinct tokens, none next to another one, so no two marks touch."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = list(_TOKEN.finditer(text))
        self.claimed: set[int] = set()
        self.edits: list[_Edit] = []

    def free(self, *indices: int) -> bool:
        """Whether no claimed token is at or next to any of ``indices``."""
        return not any(j in self.claimed for i in indices for j in (i - 1, i, i + 1))

    def gap(self, i: int) -> str:
        """The text between token ``i`` and the next one."""
        end = self.tokens[i + 1].start() if i + 1 < len(self.tokens) else len(self.text)
        return self.text[self.tokens[i].end() : end]

    def add(self, indices: tuple[int, ...], start: int, end: int, new: str, kind: str) -> None:
        self.claimed.update(indices)
        self.edits.append(_Edit(start, end, new, kind))

    def place(
        self, count: int, candidates: list[int], make: Callable[[int], bool], rng: random.Random
    ) -> None:
        """``count`` edits from ``make(i)`` (False: none at token i) at shuffled candidates."""
        rng.shuffle(candidates)
        placed = 0
        for i in candidates:
            if placed == count:
                return
            if not self.free(i, i + 1):
                continue
            if make(i):
                placed += 1
        if placed < count:
            raise ValueError(f"text has room for only {placed} of {count} such errors")


def _sentence_starts(planner: _Planner) -> set[int]:
    """Tokens that open a sentence: the first, and each after end punctuation and a space (not
    after an abbreviation such as "Dr.")."""
    starts = {m.end() for m in _SENTENCE_START.finditer(planner.text)}
    return {
        i
        for i, token in enumerate(planner.tokens)
        if token.start() in starts
        and (i == 0 or planner.tokens[i - 1].group().lower() not in _ABBREVIATIONS)
    }


def inject_errors(text: str, level: TyposLevel, rng: random.Random) -> tuple[str, list[list[str]]]:
    """``text`` with the level's errors, and [kind, original, corrupted] for each in text order.

    Raises ValueError when the text cannot take them all.
    """
    plan = _Planner(text)
    tokens = plan.tokens
    n = len(tokens)

    def full_stop(i: int) -> bool:
        word, following = tokens[i].group(), tokens[i + 1].group()
        if plan.gap(i) != ". " or following not in SENTENCE_OPENERS:
            return False
        if not (word.islower() and word.isalpha() and len(word) >= 2):
            return False
        plan.add((i, i + 1), tokens[i].end(), tokens[i + 1].start(), " ", "full stop")
        return True

    openers = _sentence_starts(plan)

    def capital(i: int) -> bool:
        word = tokens[i].group()
        if not (i in openers and word[0].isupper() and word[1:2].islower()):
            return False
        new = word[0].lower() + word[1:]
        plan.add((i,), tokens[i].start(), tokens[i].end(), new, "capitalisation")
        return True

    def doubled(i: int) -> bool:
        word = tokens[i].group()
        if not (word.islower() and word.isalpha() and len(word) >= 2) or word in ("an",):
            return False
        plan.add((i,), tokens[i].start(), tokens[i].end(), f"{word} {word}", "doubled word")
        return True

    def article(i: int) -> bool:
        word = tokens[i].group()
        if word not in ("a", "an") or plan.gap(i) != " ":
            return False
        new = "an" if word == "a" else "a"
        plan.add((i, i + 1), tokens[i].start(), tokens[i].end(), new, "a/an")
        return True

    everything = list(range(n - 1))
    plan.place(level.full_stops, list(everything), full_stop, rng)
    plan.place(level.articles, list(everything), article, rng)
    plan.place(level.capitalisation, list(range(n)), capital, rng)
    plan.place(level.doubled, list(everything), doubled, rng)
    _place_spelling(plan, level, rng)
    plan.edits.sort(key=lambda e: e.start)
    pieces, errors, last = [], [], 0
    for edit in plan.edits:
        pieces.append(text[last : edit.start] + edit.replacement)
        errors.append([edit.kind, text[edit.start : edit.end], edit.replacement])
        last = edit.end
    pieces.append(text[last:])
    return "".join(pieces), errors


def _place_spelling(plan: _Planner, level: TyposLevel, rng: random.Random) -> None:
    """Non-word misspellings, ``level.long_words`` of them swaps inside long words."""
    vocabulary, seen_pairs = _vocabulary(plan.text)
    known = vocabulary | frozenset(MISSPELLINGS)
    ordered = tuple(sorted(known))

    def misspell(i: int, long_swap: bool) -> bool:
        word = plan.tokens[i].group()
        if not word.islower() or not word.isalpha():
            return False
        candidates: list[str | None]
        if long_swap:
            if len(word) < LONG_WORD:
                return False
            inner = [j for j in range(2, len(word) - 3) if word[j] != word[j + 1]]
            if not inner:
                return False
            j = rng.choice(inner)
            candidates = [word[:j] + word[j + 1] + word[j] + word[j + 2 :]]
        elif word in MISSPELLINGS and rng.random() < 0.5:
            candidates = [MISSPELLINGS[word]]
        elif len(word) >= MIN_LENGTH:
            candidates = [_edit(word, rng.choice(_KINDS), rng) for _ in range(_EDIT_TRIES)]
        else:
            return False
        for typo in candidates:
            if not typo or typo in known or not _bigrams(typo) - seen_pairs:
                continue
            if _one_correction(typo, word, ordered):
                token = plan.tokens[i]
                plan.add((i,), token.start(), token.end(), typo, "spelling")
                return True
        return False

    indices = list(range(len(plan.tokens)))
    plan.place(level.long_words, list(indices), lambda i: misspell(i, True), rng)
    rest = level.spelling - level.long_words
    plan.place(rest, list(indices), lambda i: misspell(i, False), rng)


_ATTEMPTS = 20


@register
class Typos(Task):
    name = "typos"
    category = "language"
    uses_sources = True

    def generate(self, rng: random.Random, sources: Sources, difficulty: int = 0) -> Question:
        level = difficulty_level(difficulty)
        if level is None:
            return self._generate_v1(rng, sources)
        return self._generate_level(rng, sources, level, difficulty)

    def _generate_v1(self, rng: random.Random, sources: Sources) -> Question:
        subtask = rng.choice(sorted(SUBTASKS))
        cfg = SUBTASKS[subtask]
        pool = fresh_passages(sources, self.name)
        short = [p for p in pool if len(p.split()) <= MAX_WORDS] or list(pool)
        count = rng.randint(cfg.min_typos, cfg.max_typos)
        for _ in range(_ATTEMPTS):
            original = rng.choice(short)
            try:
                corrupted, pairs = inject_typos(original, count, rng, cfg.misspelling_rate)
            except ValueError:
                continue
            prompt = PROMPT_TEMPLATE.format(count=count, passage=corrupted)
            return Question(
                prompt=prompt,
                ground_truth=original,
                subtask=subtask,
                fields={"corrupted": corrupted, "typos": pairs},
                material=(original,),
            )
        if sources.texts:
            raise UserError(f"--sources: no paragraph could take {count} typos")
        raise ValueError(f"no passage could take {count} typos")

    def _generate_level(
        self, rng: random.Random, sources: Sources, level: TyposLevel, d: int
    ) -> Question:
        pool = fresh_passages(sources, self.name, level.passages, usable=_usable)
        for _ in range(_ATTEMPTS):
            chosen = rng.sample(pool, level.passages)
            original = "\n\n".join(chosen)
            try:
                corrupted, errors = inject_errors(original, level, rng)
            except ValueError:
                continue
            return Question(
                prompt=HARD_PROMPT_TEMPLATE.format(count=level.errors, text=corrupted),
                ground_truth=original,
                subtask=f"d{d}",
                fields={"corrupted": corrupted, "errors": errors},
                material=tuple(chosen),
            )
        raise UserError(
            f"live task typos: no {level.passages} unused passages could take "
            f"{level.errors} errors; pass --sources with more text or lower --difficulty"
        )

    def score(self, record: dict[str, Any], response: str) -> Verdict:
        gold = record.get("ground_truth")
        answer = extract_answer(response) if isinstance(response, str) else None
        truth = normalise_passage(gold) if isinstance(gold, str) else ""
        if not truth or not answer:
            return verdict(answer, 0.0)
        found = normalise_passage(answer)
        # extract_answer drops a final period, which the passage usually ends with.
        if truth in found or truth in found + ".":
            return verdict(answer, 1.0)
        text = strip_think(response)
        if text and not _ANSWER_TAG.search(text) and truth in normalise_passage(text):
            return verdict(text, 1.0)  # no answer tags: the corrected passage anywhere in the reply
        return verdict(answer, 0.0)


def _usable(text: str) -> bool:
    """A passage a harder question can use: not too long, and free of error marks."""
    return len(text.split()) <= MAX_WORDS and clean(text)
