// A product page's content is the product: its name, price, description and specifications. Around it a shop
// puts other products ("Customers also viewed", "Similar items") and what buyers said about this one (the
// reviews widget, often hundreds of entries). Both are sections under a heading that names them, in any
// layout, so they are recognised by their heading in the rendered blocks rather than by the wrappers' names.
const OTHER_PRODUCTS =
  /^(?:(?:people|customers|shoppers) who (?:viewed|bought)|(?:customers|people|shoppers) (?:also|often) (?:viewed|bought|liked)|(?:you|you'll) (?:may|might|will) also (?:like|love|need)|frequently bought together|similar (?:items|products|styles)|related (?:items|products)|explore related|more (?:items|products) (?:from|like|to)|recommended (?:for you|products|items)|complete the look|choose your add-ons|(?:andere )?kunden kauften auch|ähnliche (?:artikel|produkte)|das könnte (?:dir|ihnen) auch gefallen|produits (?:similaires|associés)|vous aimerez aussi|productos (?:similares|relacionados)|también te puede gustar|prodotti (?:simili|correlati))(?![\p{L}\p{N}])/iu;
// A bare "Reviews" may be the press's quotes in the description (a game's store page); buyers' reviews say whose they are.
const REVIEWS =
  /^(?:(?:top|customer|user|verified|recent|latest|buyer|guest|product) (?:reviews?|ratings?|testimonials?)|(?:reviews?|ratings?(?: (?:&|and) reviews?)?) (?:for|from|of) |(?:\d[\d,.]* )?(?:five|5)[- ]star reviews|testimonials?$|kundenbewertungen|kundenrezensionen|bewertungen für|avis (?:clients|des clients|vérifiés)|opiniones de (?:clientes|los clientes)|reseñas de clientes|recensioni (?:dei clienti|clienti))/iu;

/** True for a heading that opens a shop's section about other products or buyers' reviews. */
export function isOffProductHeading(text: string): boolean {
  const t = text.trim();
  return t.split(/\s+/).length <= 10 && (OTHER_PRODUCTS.test(t) || REVIEWS.test(t));
}

const HEADING = /^(#{1,6}) +(.*)$/;

/**
 * The blocks without the sections about other products and reviews: each ends at the next heading of its
 * level or above. The product's own blocks before the first such heading always stay.
 */
export function dropOffProductSections(blocks: string[]): string[] {
  const out: string[] = [];
  let skipLevel = 0;
  for (const block of blocks) {
    const m = HEADING.exec(block);
    const level = m ? m[1]!.length : 0;
    if (skipLevel && (!level || level > skipLevel)) continue;
    skipLevel = 0;
    if (m && isOffProductHeading(m[2]!.replace(/[*_`]/g, ""))) {
      skipLevel = level;
      continue;
    }
    out.push(block);
  }
  return out;
}
