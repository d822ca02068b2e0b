/**
 * The event catalogue `fatecraft generate --events` writes beside a synthetic
 * campaign: entries that fit any campaign (no unit type, structure or
 * settlement named), of every scope, tone and common condition, so the
 * benchmark can weigh the events phase on a thousand nations (issue 21's
 * target: within 10% of the turn without them). Written as events.yaml, it
 * goes through the same reader and checks as a GM's own file.
 */
export const SYNTHETIC_EVENTS = `# A generic catalogue for synthetic campaigns (fatecraft generate --events).
settings:
  quiet: 40
events:
  - id: good-harvest
    title: A good harvest
    text: "The fields around {settlement} bend under the grain."
    tone: good
    conditions: [{ season: Summer }]
    effects: [{ renown: 5 }]
  - id: hard-winter
    title: A hard winter
    text: "Snow lies deep on {nation}; the granaries run low."
    tone: bad
    conditions: [{ season: Winter }]
    effects: [{ happiness: -1 }]
  - id: festival
    title: A festival
    text: "{leader} opens a festival, and the people cheer."
    tone: good
    effects: [{ happiness: 1 }, { message: "The festival is remembered fondly." }]
  - id: merchants
    title: Merchants arrive
    text: "Merchants from afar set up stalls in {settlement}."
    scope: settlement
    tone: good
    modifiers: [{ factor: 2, when: { prosperity: { min: 1 } } }]
    effects: [{ renown: 8 }, { prosperity: 1 }]
  - id: fire
    title: Fire in the town
    text: "A fire sweeps through {settlement}."
    scope: settlement
    tone: bad
    effects: [{ prosperity: -1 }]
  - id: omen
    title: An omen
    text: "A comet is seen over {nation}."
    tone: neutral
    effects: [{ fate: 1 }]
    public: "A comet was seen in the northern sky."
  - id: fever
    title: Camp fever
    text: "Fever runs through {unit}."
    scope: unit
    tone: bad
    effects: [{ unit_bloodied: {} }]
  - id: pilgrims
    title: Pilgrims
    text: "Pilgrims pass through {hex}, and leave gifts."
    scope: hex
    tone: good
    conditions: [{ happiness: { min: 0 } }]
    effects: [{ fate: 1 }]
  - id: unrest
    title: Grumbling
    text: "The people of {nation} grumble at the taxes."
    tone: bad
    conditions: [{ happiness: { max: -1 } }]
    effects: [{ happiness: -1 }]
  - id: windfall
    title: A windfall
    text: "An old debt is repaid to {leader}."
    tone: good
    weight: 5
    effects: [{ renown: 15 }]
`;
