// A k-d tree over points on the unit sphere (core/geo/great-circle.ts unitVector): the nearest
// points to a place without comparing it with every other, and exact by great-circle distance
// (chord order is arc order), across the 180th meridian too. Built once, read many times.
import {
  chordSquaredOfMiles,
  EARTH_RADIUS_MILES,
  unitVector,
  type Coordinates,
} from './great-circle.ts';

type Vector = [number, number, number];

interface Node {
  point: number;
  axis: 0 | 1 | 2;
  left?: Node;
  right?: Node;
}

export interface Neighbour {
  /** The point's index in the array the tree was built from. */
  index: number;
  /** Great-circle miles. */
  miles: number;
}

export class SphereKdTree {
  private readonly vectors: Vector[];
  private readonly root: Node | undefined;

  constructor(points: readonly Coordinates[]) {
    this.vectors = points.map(unitVector);
    this.root = this.build(
      points.map((_, index) => index),
      0,
    );
  }

  private build(indices: number[], depth: number): Node | undefined {
    if (indices.length === 0) return undefined;
    const axis = (depth % 3) as 0 | 1 | 2;
    indices.sort((a, b) => this.vectors[a]![axis] - this.vectors[b]![axis]);
    const middle = indices.length >> 1;
    const left = this.build(indices.slice(0, middle), depth + 1);
    const right = this.build(indices.slice(middle + 1), depth + 1);
    return {
      point: indices[middle]!,
      axis,
      ...(left ? { left } : {}),
      ...(right ? { right } : {}),
    };
  }

  /**
   * Up to `count` points nearest `center`, nearest first, within `maxMiles`, leaving out those
   * `skip` refuses (the place itself).
   */
  nearest(
    center: Coordinates,
    count: number,
    maxMiles = Infinity,
    skip: (index: number) => boolean = () => false,
  ): Neighbour[] {
    const target = unitVector(center);
    // Best first, at most `count`, as [index, squared chord].
    const best: Array<[number, number]> = [];
    let bound = maxMiles === Infinity ? Infinity : chordSquaredOfMiles(maxMiles);
    const visit = (node: Node | undefined) => {
      if (!node) return;
      const vector = this.vectors[node.point]!;
      const d2 = squaredDistance(vector, target);
      if (d2 <= bound && !skip(node.point)) {
        let at = best.length;
        while (at > 0 && best[at - 1]![1] > d2) at -= 1;
        best.splice(at, 0, [node.point, d2]);
        if (best.length > count) best.pop();
        if (best.length === count) bound = Math.min(bound, best[count - 1]![1]);
      }
      const delta = target[node.axis] - vector[node.axis];
      const [near, far] = delta < 0 ? [node.left, node.right] : [node.right, node.left];
      visit(near);
      if (delta * delta <= bound) visit(far);
    };
    if (count > 0) visit(this.root);
    return best.map(([index, d2]) => ({ index, miles: milesOfChordSquared(d2) }));
  }
}

const squaredDistance = (a: Vector, b: Vector) =>
  (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2;

const milesOfChordSquared = (d2: number) =>
  2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(d2) / 2));
