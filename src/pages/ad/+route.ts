// https://vike.dev/route
export default '/city/@stateName/@cityName/ad/@adId';
