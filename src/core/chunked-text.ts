/**
 * A long text made of many pieces: a turn's events.yaml (100,000 events), its
 * state.yaml, the GM's world map (200,000 hexes and tokens).
 *
 * Grown by `+=`, or kept as a list of pieces until one final join, such a
 * text is millions of small strings that all live until the file is written.
 * The young generation's collector copies every one of them, twice, before
 * promoting them: a large share of the main thread's collecting in a big
 * turn. Here the pieces are joined into one flat string every `chunk`
 * pieces, while they are young and die cheaply, and only the chunks live on.
 */
export class ChunkedText {
  private parts: string[] = [];
  private readonly chunks: string[] = [];

  constructor(
    private readonly separator = '',
    private readonly chunk = 64,
  ) {}

  get empty(): boolean {
    return this.parts.length === 0 && this.chunks.length === 0;
  }

  add(piece: string): void {
    this.parts.push(piece);
    if (this.parts.length === this.chunk) {
      this.chunks.push(this.parts.join(this.separator));
      this.parts = [];
    }
  }

  /** The pieces in order, the separator between each two. */
  text(): string {
    if (this.parts.length > 0) {
      this.chunks.push(this.parts.join(this.separator));
      this.parts = [];
    }
    return this.chunks.join(this.separator);
  }
}
