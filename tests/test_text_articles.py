"""A renamed term keeps its article: "a [burn_pile]" reads "an Entropy Pile"."""

from tether_build.content.text import render_html, render_plain

TERMS = {"burn_pile": {"singular": "Entropy Pile", "plural": "Entropy Piles"},
         "force": {"singular": "Cohort", "plural": "Cohorts"},
         "unit": {"singular": "unit", "plural": "units"}}


def test_a_and_an_follow_the_current_name():
    assert render_plain("Cards in a [burn_pile] stay.", TERMS, {}) == \
        "Cards in an Entropy Pile stay."
    assert render_plain("An [force] moves; a [unit] too.", TERMS, {}) == \
        "A Cohort moves; a unit too."
    assert render_plain("Banana [force], data [burn_pile]", TERMS, {}) == \
        "Banana Cohort, data Entropy Pile"
    assert render_html("a [burn_pile] <b>", TERMS, {}, str) == \
        'an <span class="term">Entropy Pile</span> &lt;b&gt;'
