// The learning behind the scam shield's model (pipeline/shield/train.ts): L2-regularised logistic
// and softmax regression over sparse features, minimised by L-BFGS, and Platt scaling. Written
// here rather than taken from a package: the JavaScript ones fit dense matrices (ml-logistic-
// regression: 2,000 texts × 40,000 features is 640 MB of doubles) or come with a database
// client and a word net (natural); fastText's WebAssembly build only predicts. Everything is
// deterministic: the same rows in the same order give the same weights, bit for bit.

/** A text as the learner sees it: the indexes of its features and their values. */
export interface SparseRow {
  indexes: Int32Array;
  values: Float64Array;
}

type Objective = (point: Float64Array, gradient: Float64Array) => number;

const dot = (a: Float64Array, b: Float64Array) => {
  let sum = 0;
  for (let at = 0; at < a.length; at += 1) sum += a[at]! * b[at]!;
  return sum;
};

/** Minimises `objective` from zero by L-BFGS (10 pairs kept) with a backtracking line search. */
export function minimise(size: number, objective: Objective, iterations = 400): Float64Array {
  const memory = 10;
  let point = new Float64Array(size);
  let gradient = new Float64Array(size);
  let value = objective(point, gradient);
  const steps: Float64Array[] = [];
  const changes: Float64Array[] = [];
  const rhos: number[] = [];
  const direction = new Float64Array(size);
  const alphas = new Float64Array(memory);
  for (let iteration = 0; iteration < iterations; iteration += 1) {
    // The two-loop recursion: direction = -H·gradient.
    direction.set(gradient);
    for (let at = steps.length - 1; at >= 0; at -= 1) {
      alphas[at] = rhos[at]! * dot(steps[at]!, direction);
      const change = changes[at]!;
      for (let k = 0; k < size; k += 1) direction[k]! -= alphas[at]! * change[k]!;
    }
    if (steps.length > 0) {
      const last = steps.length - 1;
      const scale = dot(steps[last]!, changes[last]!) / dot(changes[last]!, changes[last]!);
      for (let k = 0; k < size; k += 1) direction[k]! *= scale;
    }
    for (let at = 0; at < steps.length; at += 1) {
      const beta = rhos[at]! * dot(changes[at]!, direction);
      const step = steps[at]!;
      for (let k = 0; k < size; k += 1) direction[k]! += step[k]! * (alphas[at]! - beta);
    }
    for (let k = 0; k < size; k += 1) direction[k] = -direction[k]!;
    let slope = dot(gradient, direction);
    if (slope >= 0) {
      // Not a descent direction: start again from the gradient.
      for (let k = 0; k < size; k += 1) direction[k] = -gradient[k]!;
      slope = dot(gradient, direction);
      steps.length = changes.length = rhos.length = 0;
    }
    let length = iteration === 0 && steps.length === 0 ? 1 / Math.sqrt(-slope) : 1;
    const next = new Float64Array(size);
    const nextGradient = new Float64Array(size);
    let nextValue = Infinity;
    for (let tries = 0; tries < 40; tries += 1) {
      for (let k = 0; k < size; k += 1) next[k] = point[k]! + length * direction[k]!;
      nextValue = objective(next, nextGradient);
      if (nextValue <= value + 1e-4 * length * slope) break;
      length /= 2;
    }
    if (!(nextValue < value)) break;
    const step = new Float64Array(size);
    const change = new Float64Array(size);
    for (let k = 0; k < size; k += 1) {
      step[k] = next[k]! - point[k]!;
      change[k] = nextGradient[k]! - gradient[k]!;
    }
    const curvature = dot(step, change);
    if (curvature > 1e-12) {
      if (steps.length === memory) {
        steps.shift();
        changes.shift();
        rhos.shift();
      }
      steps.push(step);
      changes.push(change);
      rhos.push(1 / curvature);
    }
    const improvement = value - nextValue;
    point = next;
    gradient = nextGradient;
    value = nextValue;
    if (
      improvement < 1e-10 * Math.max(1, Math.abs(value)) ||
      Math.sqrt(dot(gradient, gradient)) < 1e-7
    )
      break;
  }
  return point;
}

/** The L2 penalty of the first `count` weights (not the biases after them), added to `gradient`. */
function l2(point: Float64Array, gradient: Float64Array, count: number, penalty: number): number {
  let loss = 0;
  for (let k = 0; k < count; k += 1) {
    loss += (penalty / 2) * point[k]! * point[k]!;
    gradient[k]! += penalty * point[k]!;
  }
  return loss;
}

const logistic = (score: number) => 1 / (1 + Math.exp(-score));
/** log(1 + e^score), without overflow. */
const softplus = (score: number) =>
  score > 0 ? score + Math.log1p(Math.exp(-score)) : Math.log1p(Math.exp(score));

/**
 * A logistic regression: the bias (last entry) and a weight per feature, for rows labelled 1 (a
 * scam) or 0, each row weighted (the classes count alike whatever their sizes).
 */
export function fitLogistic(
  rows: readonly SparseRow[],
  labels: readonly number[],
  features: number,
  penalty: number,
): Float64Array {
  const positives = labels.filter((label) => label === 1).length;
  const weightOf = [rows.length / (2 * (rows.length - positives)), rows.length / (2 * positives)];
  const total = rows.length;
  return minimise(features + 1, (point, gradient) => {
    gradient.fill(0);
    let loss = 0;
    for (let at = 0; at < rows.length; at += 1) {
      const { indexes, values } = rows[at]!;
      let score = point[features]!;
      for (let k = 0; k < indexes.length; k += 1) score += point[indexes[k]!]! * values[k]!;
      const label = labels[at]!;
      const weight = weightOf[label]! / total;
      loss += weight * (softplus(score) - label * score);
      const error = weight * (logistic(score) - label);
      for (let k = 0; k < indexes.length; k += 1) gradient[indexes[k]!]! += error * values[k]!;
      gradient[features]! += error;
    }
    return loss + l2(point, gradient, features, penalty);
  });
}

/**
 * A softmax regression over `classes` classes: for each feature (then the bias, last) one weight
 * per class, feature-major.
 */
export function fitSoftmax(
  rows: readonly SparseRow[],
  labels: readonly number[],
  features: number,
  classes: number,
  penalty: number,
): Float64Array {
  const total = rows.length;
  const scores = new Float64Array(classes);
  return minimise((features + 1) * classes, (point, gradient) => {
    gradient.fill(0);
    let loss = 0;
    for (let at = 0; at < rows.length; at += 1) {
      const { indexes, values } = rows[at]!;
      for (let c = 0; c < classes; c += 1) scores[c] = point[features * classes + c]!;
      for (let k = 0; k < indexes.length; k += 1)
        for (let c = 0; c < classes; c += 1)
          scores[c]! += point[indexes[k]! * classes + c]! * values[k]!;
      let top = -Infinity;
      for (let c = 0; c < classes; c += 1) top = Math.max(top, scores[c]!);
      let sum = 0;
      for (let c = 0; c < classes; c += 1) sum += Math.exp(scores[c]! - top);
      const label = labels[at]!;
      loss += (Math.log(sum) + top - scores[label]!) / total;
      for (let c = 0; c < classes; c += 1) {
        const error = (Math.exp(scores[c]! - top) / sum - (c === label ? 1 : 0)) / total;
        for (let k = 0; k < indexes.length; k += 1)
          gradient[indexes[k]! * classes + c]! += error * values[k]!;
        gradient[features * classes + c]! += error;
      }
    }
    return loss + l2(point, gradient, features * classes, penalty);
  });
}

/**
 * Platt scaling: the scale and shift that turn scores into probabilities, fitted on scores the
 * model gave texts it was not trained on (labels 1 for a scam), with Platt's smoothed targets.
 */
export function fitPlatt(
  scores: readonly number[],
  labels: readonly number[],
): { scale: number; shift: number } {
  const positives = labels.filter((label) => label === 1).length;
  const negatives = labels.length - positives;
  const high = (positives + 1) / (positives + 2);
  const low = 1 / (negatives + 2);
  const [scale, shift] = minimise(2, (point, gradient) => {
    gradient.fill(0);
    let loss = 0;
    for (let at = 0; at < scores.length; at += 1) {
      const target = labels[at] === 1 ? high : low;
      const z = point[0]! * scores[at]! + point[1]!;
      loss += softplus(z) - target * z;
      const error = logistic(z) - target;
      gradient[0]! += error * scores[at]!;
      gradient[1]! += error;
    }
    return loss;
  });
  return { scale: scale!, shift: shift! };
}
