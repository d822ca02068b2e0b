/**
 * The built-in caretakers every campaign has unless its caretakers.yaml says
 * `defaults: false` (docs/events.md, "Caretakers"): the steward, who keeps a
 * silent player's nation as the player left it, and civil disorder's, which
 * only defends. Written in the catalogue's own words, so a GM can read them,
 * copy one into caretakers.yaml and change it.
 */
export const DEFAULT_CARETAKERS_YAML = `
caretakers:
  - id: steward
    name: a steward
    steps:
      # Builders stay on their sites and besiegers in their sieges: the work goes on.
      - keep_work: ~
      # A settlement with foreign units seen within 2 hexes: its guard holds and pledges Fate,
      # and free units that can reach it stand ready to defend it.
      - defend: { fate: 2, support: true }
      # Every settlement keeps a guard: the nearest free unit that can reach an empty one moves in.
      - garrison: ~
      # A settlement that was the nation's own, seen in another's hands: taken back when enough units can reach it.
      - retake: { min: 2, fate: 1 }
      # Units up to the caps, infantry first, keeping 20 Renown in the treasury.
      - raise: { classes: [infantry, cavalry, naval, siege], keep: 20 }
      # The wounded rest.
      - rest: ~
  - id: disorder
    name: civil disorder
    steps:
      # No one rules: the forces only defend, without Fate, and nothing is raised or built.
      - defend: { fate: 0, support: false }
`;
